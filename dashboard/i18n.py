"""Every label of the dashboard in Turkish and English, in one catalogue."""

from __future__ import annotations

from dashboard.i18n_parties import PARTY_FIELDS, PARTY_LABELS, PARTY_MONEY_FIELDS, PARTY_SHARE_FIELDS, UNITS
from dashboard.i18n_watchlists import WATCH_LABELS

LANGUAGES = ("tr", "en")
LABELS: dict[str, tuple[str, str]] = {
    "app_title": ("Gösterge", "Gösterge"),
    "language": ("Dil", "Language"),
    "overview": ("Genel bakış", "Overview"),
    "competition": ("Rekabet ve yoğunlaşma", "Competition and concentration"),
    "direct": ("Doğrudan temin", "Direct procurement"),
    "localization": ("Yerel tedarikçiler", "Local suppliers"),
    "province_sectors": ("İl × sektör", "Province × sector"),
    "flows": ("Tedarik akışları", "Supply flows"),
    "rankings": ("Sıralamalar", "Rankings"),
    "news": ("Haberler", "News"),
    "api_key": ("API anahtarı", "API key"),
    "admin": ("Yönetim", "Admin"),
    "release": ("Yayın", "Release"),
    "loaded_at": ("Yüklenme", "Loaded"),
    "synthetic_badge": ("SENTETİK VERİ: gerçek ihale kayıtları değildir", "SYNTHETIC DATA: not real procurement records"),
    "datasets": ("Veri setleri", "Datasets"),
    "rows": ("Satır", "Rows"),
    "citation": ("Atıf", "Citation"),
    "downloads": ("Yayının tamamını indirin", "Download the whole release"),
    "download_tables": ("Tablolar (yüklendiği hâliyle CSV dosyaları, ZIP)", "Tables (the CSV files as loaded, ZIP)"),
    "download_ocds": ("OCDS 1.1 yayın paketi (gzip)", "OCDS 1.1 release package (gzip)"),
    "download_line": ("{size} MB · {credits} kredi · SHA-256 {sha}…", "{size} MB · {credits} credits · SHA-256 {sha}…"),
    "downloads_note": ("İndirmek için kendi API anahtarınız gerekir (Authorization: Bearer başlığı ya da ?apikey=); "
                       "yarıda kalan bir indirme 24 saat içinde ücretsiz sürdürülür.",
                       "Downloading needs your own API key (an Authorization: Bearer header or ?apikey=); an "
                       "interrupted download resumes free of charge within 24 hours."),
    "headline_figures": ("Öne çıkan göstergeler", "Headline figures"),
    "tenders": ("İhale sayısı", "Tenders"),
    "single_bid_share": ("Tek teklifli pay", "Single-bid share"),
    "average_discount": ("Ortalama indirim", "Average discount"),
    "hhi": ("HHI", "HHI"),
    "cr4": ("CR4", "CR4"),
    "local_share_count": ("Yerel pay (sayı)", "Local share (count)"),
    "local_share_value": ("Yerel pay (tutar)", "Local share (value)"),
    "latest_news": ("Son önemli haberler", "Latest important news"),
    "dimension": ("Kırılım", "Breakdown"),
    "subject": ("Konu", "Subject"),
    "period": ("Dönem", "Period"),
    "all_years": ("Tüm yıllar", "All years"),
    "by_year": ("Yıllara göre", "By year"),
    "on_map": ("Haritada", "On the map"),
    "ranked": ("Sıralı", "Ranked"),
    "count_behind": ("Dayanak sayı", "Cases behind"),
    "few_cases": ("Az sayıda vakaya dayanıyor; dikkatle yorumlayın.", "Based on few cases; read with care."),
    "download_csv": ("CSV indir", "Download CSV"),
    "province": ("İl", "Province"),
    "sector": ("Sektör", "Sector"),
    "method": ("Yöntem", "Method"),
    "buyer_province": ("Alıcı il", "Buyer province"),
    "supplier_province": ("Tedarikçi il", "Supplier province"),
    "top_n": ("İlk N akış", "Top N flows"),
    "amount": ("Tutar (TL)", "Amount (TRY)"),
    "prices": ("Tutarlar", "Amounts"),
    "nominal": ("Cari TL", "Nominal TRY"),
    "real_in": ("{year} Aralık fiyatlarıyla (reel)", "In December {year} prices (real)"),
    "real_note": ("Tutarlar TÜFE ile {year} Aralık fiyatlarına çevrildi. Kaynak: {source}; endeks {through} "
                  "ayına kadardır.",
                  "Amounts are deflated by the CPI to December {year} prices. Source: {source}; the index runs "
                  "through {through}."),
    "cpi_source": ("TÜİK, Tüketici Fiyat Endeksi (2003=100), her yılın Aralık endeksi (EVDS serisi TP.FG.J0)",
                   "TÜİK, Consumer Price Index (2003=100), December index of each year (EVDS series TP.FG.J0)"),
    "pooled_nominal": ("Tutarlar tüm yılların toplamıdır, cari TL ile; yıllara bölünmedikleri için enflasyondan "
                       "arındırılamazlar (reel tutarlar: Doğrudan temin sayfası).",
                       "Amounts are totals over every year, in nominal TRY; not being split by year, they cannot be "
                       "deflated (amounts in real terms: the Direct procurement page)."),
    "real_missing": ("Fiyat endeksinin henüz kapsamadığı yıllar ({years}) ve tüm yılların toplamı reel olarak "
                     "gösterilemez.",
                     "Years the price index does not cover yet ({years}) and the all-years figures cannot be "
                     "shown in real terms."),
    "local_amount": ("Yerel tutar", "Local amount"),
    "other_amount": ("Diğer tutar", "Other amount"),
    "contracts": ("Sözleşme", "Contracts"),
    "purchases": ("Alım sayısı", "Purchases"),
    "median": ("Medyan", "Median"),
    "mean": ("Ortalama", "Mean"),
    "p95": ("95. yüzdelik", "95th percentile"),
    "p99": ("99. yüzdelik", "99th percentile"),
    "max": ("En büyük", "Largest"),
    "largest_share": ("En büyüğün payı", "Share of the largest"),
    "top_authorities": ("En çok alım yapan 10 idare", "Top 10 authorities"),
    "top_contractors": ("En çok kazanan 10 yüklenici", "Top 10 contractors"),
    "rank": ("Sıra", "Rank"),
    "name": ("Ad", "Name"),
    "count": ("Adet", "Count"),
    "source": ("Kaynak", "Source"),
    "category": ("Kategori", "Category"),
    "tags": ("Etiketler", "Tags"),
    "tickers": ("Hisse kodları", "Tickers"),
    "countries": ("Ülkeler", "Countries"),
    "min_importance": ("En düşük önem", "Minimum importance"),
    "sentiment": ("Ton", "Sentiment"),
    "confident_only": ("Yalnız doğrulanmış özetler", "Only checked summaries"),
    "since": ("Başlangıç", "Since"),
    "until": ("Bitiş", "Until"),
    "load_more": ("Daha fazla yükle", "Load more"),
    "importance": ("Önem", "Importance"),
    "not_confident": ("Özetteki bir sayı belgede bulunamadı ya da belge belirsiz: aslına bakın.",
                      "A number in this summary was not found in the document, or the document was unclear: check the original."),
    "machine_written": ("Başlık ve özetleri bir dil modeli ya da (örnek akışta) bir kişi yazmıştır; her haberde hangisi "
                        "olduğu yazılıdır. Hata içerebilirler; asıl belge esastır.",
                        "Headlines and summaries are written by a language model or, in the curated sample, by hand; "
                        "each article says which. They may contain errors; the original is authoritative."),
    "written_by_model": ("Bir dil modeli yazdı: {model}", "Written by a language model: {model}"),
    "written_by_hand": ("Elle yazılmış örnek haber (demo akışı), bir modelin özeti değil",
                        "Hand-written sample article (the demo feed), not a model's summary"),
    "tags_placeholder": ("Konu sözcükleri (İngilizce)", "inflation, interest-rates"),
    "admin_key_help": ("Yönetici anahtarı sunucuda şu komutla oluşturulur: `gosterge keys create --admin` "
                       "(anahtar yalnız bir kez gösterilir).",
                       "An admin key is created on the server with `gosterge keys create --admin` "
                       "(the key is shown only once)."),
    "ekap_citation": ("Kamu İhale Kurumu (KİK), Elektronik Kamu Alımları Platformu (EKAP): ihale kayıtları ve sonuç "
                      "ilanları.",
                      "Public Procurement Authority of Türkiye (KİK), Electronic Public Procurement Platform (EKAP): "
                      "tender records and result notices."),
    "ekap_no_direct": ("Doğrudan temin alımı yok: içe aktarılan kayıtlarda yüklenicisi ve tutarı olan bir doğrudan "
                       "temin sonucu yoktu (EKAP'ın ilanları ve listeleri ikisini de vermez); bu dosya boştur ve "
                       "doğrudan temin istatistikleri boştur.",
                       "No direct purchases: no direct-procurement result (doğrudan temin) with a supplier and an "
                       "amount was among the imported records (EKAP's announcements and listings name neither), so "
                       "this file is empty and the direct-procurement statistics are null."),
    "original": ("Asıl belge", "Original document"),
    "companies": ("Şirketler", "Companies"),
    "no_items": ("Bu seçim için veri yok.", "No data for this choice."),
    "empty_release_tenders": ("Bu yayında hiç ihale kaydı yok.", "This release has no tenders."),
    "empty_release_awardedLots": ("Bu yayında hiç sözleşmeye bağlanmış kısım yok.",
                                  "This release has no awarded lots."),
    "empty_release_purchases": ("Bu yayında hiç doğrudan temin kaydı yok.", "This release has no direct purchases."),
    "empty_year_tenders": ("Bu yayında {year} yılına ait ihale yok.", "No tenders in {year} in this release."),
    "empty_year_awardedLots": ("Bu yayında {year} yılına ait sözleşmeye bağlanmış kısım yok.",
                               "No awarded lots in {year} in this release."),
    "empty_year_purchases": ("Bu yayında {year} yılına ait doğrudan temin yok.",
                             "No direct purchases in {year} in this release."),
    "headline_partial": ("Bu yayında kaynağın eksiksiz kapsadığı yıllara ait kayıt yok: {year}, kaydı olan son yıl "
                         "ve kısmi bir yıldır; tam yıllarla karşılaştırılamaz.",
                         "This release holds no records of the years the source covers completely: {year} is the "
                         "latest year it has records of, a partial year, not comparable with full years."),
    "email": ("E-posta", "E-mail"),
    "apis": ("API'ler", "APIs"),
    "request_key": ("Anahtar iste", "Request a key"),
    "check_approval": ("Onayı kontrol et", "Check approval"),
    "waiting_approval": ("E-postanızdaki bağlantıyla onay bekleniyor.", "Waiting for approval through the link in your e-mail."),
    "your_key": ("Anahtarınız (yalnız bir kez gösterilir)", "Your key (shown only once)"),
    "key_help": ("Her ücretli çağrı 1 kredi harcar; referans listeleri ücretsizdir. Anahtarı `Authorization: Bearer <anahtar>` başlığıyla ya da `apikey` parametresiyle gönderin. Hız sınırı aşılırsa 429 ve `Retry-After` döner.",
                 "Each paid call costs 1 credit; reference lists are free. Send the key as the `Authorization: Bearer <key>` header or the `apikey` parameter. Past the rate limit the answer is 429 with `Retry-After`."),
    "admin_key": ("Yönetici anahtarı", "Admin key"),
    "upload_release": ("Haftalık yayını yükle (ZIP)", "Upload the weekly release (ZIP)"),
    "upload": ("Yükle", "Upload"),
    "release_history": ("Yayın geçmişi", "Release history"),
    "activate": ("Etkinleştir", "Activate"),
    "release_problems": ("Yayın reddedildi; sorunlar:", "The release was refused; problems:"),
    "uploaded": ("Yeni yayın sunuluyor", "The new release is now served"),
    "uploading": ("Yükleniyor ve hesaplanıyor…", "Uploading and computing…"),
    "upload_failed": ("Yükleme tamamlanamadı", "The load did not finish"),
    "stage_receiving": ("alındı", "received"),
    "stage_unpacking": ("arşiv açılıyor", "unpacking"),
    "stage_validating": ("denetleniyor", "validating"),
    "stage_computing": ("istatistikler hesaplanıyor", "computing the statistics"),
    "stage_writing": ("kaydediliyor", "writing"),
    "stage_done": ("bitti", "done"),
    "partial": ("kısmi yıl", "partial year"),
    "partial_year_legend": ("Kısmi yıl: kaynakta eksik, tam yıllarla karşılaştırılamaz",
                            "Partial year: incomplete in the source, not comparable with full years"),
    "no_data": ("Veri yok", "No data"),
    "map_year": ("Harita yılı", "Year on the map"),
    "map_measure": ("Haritadaki gösterge", "Shown on the map"),
    "map_title": ("{measure}, illere göre · {year}", "{measure} by province · {year}"),
    "map_partial_note": ("{year} kaynakta kısmi bir yıl: değerler eksik kayıtlara dayanır ve tam yıllarla "
                         "karşılaştırılmamalıdır.",
                         "{year} is a partial year in the source: the values rest on incomplete records and "
                         "should not be compared with full years."),
    "map_all_note": ("Tüm yıllar bir arada: kaynakta kısmi olan yıllar ({years}) de dahildir.",
                     "Every year pooled, the years partial in the source ({years}) included."),
    "year_partial_option": ("{year} (kısmi)", "{year} (partial)"),
    "map_singleBidShare": ("Tek teklifli pay", "Single-bid share"),
    "map_averageDiscount": ("Ortalama indirim", "Average discount"),
    "map_hhi": ("HHI", "HHI"),
    "map_localShareCount": ("Yerel pay (sayı)", "Local share (count)"),
    "map_localShareValue": ("Yerel pay (tutar)", "Local share (value)"),
    "map_total": ("Doğrudan temin toplamı", "Direct procurement total"),
    "map_median": ("Medyan alım tutarı", "Median purchase"),
    "count_lotsWithBids": ("Teklif alan kısım", "Lots with bids"),
    "count_contracts": ("Sözleşme", "Contracts"),
    "count_purchases": ("Alım sayısı", "Purchases"),
    "unit_share": ("%", "%"),
    "unit_money": ("₺", "TRY"),
    "unit_hhi": ("HHI (0–10.000)", "HHI (0–10,000)"),
    "flows_map_title": ("Tutara göre en büyük {n} akış", "The {n} largest flows by amount"),
    "sort_by": ("Sıralama", "Sort by"),
    "selected_province": ("Seçili il", "Selected province"),
    "flow_between": ("İller arası akış (kalınlık: tutar; ok: tedarikçi ili)",
                     "Flow between provinces (width: amount; arrow: supplier's province)"),
    "flow_within": ("İl içi akış (alıcı ve tedarikçi aynı ilde; büyüklük: tutar)",
                    "Flow within a province (buyer and supplier in the same one; size: amount)"),
    "direct_total": ("Doğrudan temin toplamı", "Direct procurement total"),
    "headline_help": ("{year}, bu göstergede kaynağın eksiksiz kapsadığı son yıl. Kısmi yıllar ({partial}) "
                      "karşılaştırmaya katılmaz.",
                      "{year} is the latest year the source covers completely for this figure. Partial years "
                      "({partial}) are not compared."),
    "vs_year": ("{year} yılına göre", "on {year}"),
    "no_comparison_partial": ("Değişim gösterilmiyor: {year} kaynakta kısmi bir yıl.",
                              "No change shown: {year} is a partial year in the source."),
    "no_comparison_missing": ("Değişim gösterilmiyor: {year} için değer yok.",
                              "No change shown: there is no figure for {year}."),
    "times_note": ("Saatler Türkiye saatiyle (TSİ, UTC+3).", "Times in Türkiye time (TRT, UTC+3)."),
    "not_found_year": ("Bu gösterge için eksiksiz bir yıl yok.", "No complete year for this figure."),
    # Streamlit's own widget texts, which it writes in English whatever the page's language.
    "choose_options": ("Seçin", "Choose options"),
    "choose_option": ("Seçin", "Choose an option"),
    "date_format": ("DD.MM.YYYY", "YYYY-MM-DD"),
    "drop_file": ("Dosyayı buraya sürükleyip bırakın", "Drag and drop a file here"),
    "file_limit": ("Dosya başına en çok 200 MB · ZIP", "Limit 200 MB per file · ZIP"),
    "browse_files": ("Dosya seç", "Browse files"),
    "all_categories": ("Tüm kategoriler", "Every category"),
    "all_sentiments": ("Tüm tonlar", "Every tone"),
    "tags_help": ("Konu sözcükleri, İngilizce ve virgülle ayrılmış: inflation, interest-rates",
                  "Topic words in English, separated by commas: inflation, interest-rates"),
    "tickers_help": ("Borsa kodları, virgülle ayrılmış (yalnız SEC 8-K bildirimlerinde): AAPL, MSFT",
                     "Stock tickers, separated by commas (SEC 8-K filings only): AAPL, MSFT"),
    "countries_help": ("ISO ülke kodları, virgülle ayrılmış: TR, US, DE", "ISO country codes, separated by commas: TR, US, DE"),
    "boundaries_credit": ("İl sınırları: Natural Earth (kamu malı). Natural Earth ile yapılmıştır; ücretsiz vektör ve "
                          "raster harita verisi: naturalearthdata.com.",
                          "Province boundaries: Natural Earth (public domain). Made with Natural Earth. Free vector "
                          "and raster map data @ naturalearthdata.com."),
    "map_scale": ("Renk ölçeği", "Colour scale"),
    "scale_quantile": ("Dilimler (her renkte eşit sayıda il)", "Quantiles (as many provinces in each colour)"),
    "scale_log": ("Logaritmik", "Logarithmic"),
    "scale_linear": ("Doğrusal", "Linear"),
    "few_cases_legend": ("5'ten az vakaya dayanıyor (noktalı)", "Rests on fewer than 5 cases (dotted)"),
    "left_out_few": ("Sıralamada yok, 5'ten az vakaya dayandığı için ({unit}): {names}.",
                     "Left out of the ranking, resting on fewer than 5 cases ({unit}): {names}."),
    "log_axis": ("Logaritmik eksen", "Logarithmic axis"),
    "log_axis_note": ("Dikey eksen logaritmik: her çizgi bir öncekinin on katı.",
                      "Logarithmic vertical axis: each gridline is ten times the one before."),
    "axis_not_from_zero": ("Dikey eksen sıfırdan başlamıyor: değişimler olduğundan büyük görünür.",
                           "The vertical axis does not start at zero: changes look larger than they are."),
    "scale_note_quantile": ("Renkler beşte birlik dilimlere göre: her renk illerin beşte birini gösterir.",
                            "Colours by quintile: each colour holds a fifth of the provinces."),
    "scale_note_log": ("Renkler logaritmik ölçekte: her işaret bir öncekinin on katı.",
                       "Colours on a logarithmic scale: each tick is ten times the one before."),
    "scale_note_linear": ("Renkler doğrusal ölçekte, sıfırdan en büyük değere.",
                          "Colours on a linear scale, from zero to the largest value."),
    "heatmap_title": ("{measure}: hacmi en büyük {provinces} il × {sectors} sektör",
                      "{measure}: the {provinces} provinces × {sectors} sectors with the largest volume"),
    "heatmap_note": ("Hacmi en büyük {provinces} il ve {sectors} sektör gösteriliyor (toplam tutarın {share} kadarı); "
                     "geri kalan {rest_p} il ve {rest_s} sektör aşağıdaki tabloda.",
                     "The {provinces} provinces and {sectors} sectors with the largest volume are shown ({share} of "
                     "the total amount); the other {rest_p} provinces and {rest_s} sectors are in the table below."),
    "coverage_note": ("Kaynağın (KİK kayıtları) eksiksiz kapsadığı yıllar: {complete}. Bu yayında kaydı olan yıllar: "
                      "{held}; kaydı olmayan yıllar: {missing}.",
                      "Years the source (KİK's records) covers completely: {complete}. Years this release holds "
                      "records of: {held}; years it holds none of: {missing}."),
    "synthetic_citation": ("Gösterge'nin ürettiği sentetik veri; gerçek ihale kayıtları değildir.",
                           "Synthetic data generated by Gösterge; not real procurement records."),
    "flows_filtered": ("{who}: tutara göre en büyük {n} akış", "{who}: the {n} largest flows by amount"),
    "flows_from": ("Alıcı {name}", "Buyer {name}"),
    "flows_to": ("Tedarikçi {name}", "Supplier {name}"),
} | PARTY_LABELS | WATCH_LABELS

# The news sources, categories and sentiments the API names by id, as a reader sees them.
NEWS_VALUES: dict[str, tuple[str, str]] = {
    "fed": ("ABD Merkez Bankası (Fed)", "Federal Reserve"),
    "ecb": ("Avrupa Merkez Bankası (ECB)", "European Central Bank"),
    "sec": ("ABD SEC 8-K bildirimleri", "SEC 8-K filings"),
    "resmi-gazete": ("Resmî Gazete", "Official Gazette of Türkiye"),
    "monetary-policy": ("Para politikası", "Monetary policy"),
    "macro-data": ("Makroekonomik veri", "Macroeconomic data"),
    "regulation": ("Düzenleme", "Regulation"),
    "banking": ("Bankacılık", "Banking"),
    "capital-markets": ("Sermaye piyasaları", "Capital markets"),
    "corporate": ("Şirket haberleri", "Corporate news"),
    "earnings": ("Finansal sonuçlar", "Earnings"),
    "m-and-a": ("Birleşme ve devralma", "Mergers and acquisitions"),
    "management": ("Yönetim değişikliği", "Management changes"),
    "debt": ("Borçlanma", "Debt"),
    "fiscal": ("Maliye", "Fiscal policy"),
    "trade": ("Dış ticaret", "Trade"),
    "energy": ("Enerji", "Energy"),
    "other": ("Diğer", "Other"),
    "positive": ("Olumlu", "Positive"),
    "negative": ("Olumsuz", "Negative"),
    "neutral": ("Nötr", "Neutral"),
    "mixed": ("Karışık", "Mixed"),
}

# The release's datasets (its CSV files) by name.
DATASETS: dict[str, tuple[str, str]] = {
    "authorities": ("İdareler", "Contracting authorities"),
    "contractors": ("Yükleniciler", "Contractors"),
    "tenders": ("İhaleler", "Tenders"),
    "awards": ("Sözleşmeler", "Contract awards"),
    "direct_purchases": ("Doğrudan temin alımları", "Direct purchases"),
}

# The API's field names as column headings of the tables on screen (a CSV keeps the API's names).
FIELDS: dict[str, tuple[str, str]] = {
    "dimension": ("Kırılım", "Breakdown"), "subject": ("Kod", "Code"), "subjectName": ("Ad", "Name"),
    "subjectNameEn": ("Ad (İngilizce)", "Name (English)"), "period": ("Dönem", "Period"),
    "tenders": ("İhale", "Tenders"), "singleBidShare": ("Tek teklifli pay", "Single-bid share"),
    "singleBidShareSingleLot": ("Tek teklifli pay (tek kısımlı)", "Single-bid share (single lot)"),
    "lotsWithBids": ("Teklif alan kısım", "Lots with bids"), "averageLots": ("Ortalama kısım", "Average lots"),
    "averageDiscount": ("Ortalama indirim", "Average discount"), "contracts": ("Sözleşme", "Contracts"),
    "firms": ("Firma", "Firms"), "cr1": ("CR1", "CR1"), "cr4": ("CR4", "CR4"), "cr10": ("CR10", "CR10"),
    "hhi": ("HHI", "HHI"), "purchases": ("Alım", "Purchases"), "median": ("Medyan (TL)", "Median (TRY)"),
    "mean": ("Ortalama (TL)", "Mean (TRY)"), "total": ("Toplam (TL)", "Total (TRY)"),
    "p95": ("95. yüzdelik (TL)", "95th percentile (TRY)"), "p99": ("99. yüzdelik (TL)", "99th percentile (TRY)"),
    "max": ("En büyük (TL)", "Largest (TRY)"), "largestShare": ("En büyüğün payı", "Share of the largest"),
    "localShareCount": ("Yerel pay (sayı)", "Local share (count)"),
    "localShareValue": ("Yerel pay (tutar)", "Local share (value)"),
    "province": ("Plaka", "Plate"), "provinceName": ("İl", "Province"), "sector": ("Sektör kodu", "Sector id"),
    "sectorName": ("Sektör", "Sector"), "sectorNameEn": ("Sektör (İngilizce)", "Sector (English)"),
    "amount": ("Tutar (TL)", "Amount (TRY)"), "localAmount": ("Yerel tutar (TL)", "Local amount (TRY)"),
    "otherAmount": ("Diğer tutar (TL)", "Other amount (TRY)"),
    "id": ("No", "Id"), "release": ("Yayın", "Release"), "publishedAt": ("Yayımlanma", "Published"),
    "loadedAt": ("Yüklenme", "Loaded"), "synthetic": ("Sentetik", "Synthetic"), "rows": ("Satır", "Rows"),
    "uploadedBy": ("Yükleyen", "Uploaded by"), "active": ("Sunuluyor", "Served"),
    "file": ("Dosya", "File"), "row": ("Satır", "Row"), "column": ("Sütun", "Column"), "message": ("Sorun", "Problem"),
} | PARTY_FIELDS
MONEY_FIELDS = frozenset({"median", "mean", "total", "p95", "p99", "max", "amount", "localAmount",
                          "otherAmount"}) | PARTY_MONEY_FIELDS
SHARE_FIELDS = frozenset({"singleBidShare", "singleBidShareSingleLot", "averageDiscount", "cr1", "cr4", "cr10",
                          "largestShare", "localShareCount", "localShareValue"}) | PARTY_SHARE_FIELDS

# The API's own values (dimensions, ranking methods) as a reader sees them in each language.
OPTIONS: dict[str, tuple[str, str]] = {
    "overall": ("Türkiye geneli", "Türkiye as a whole"),
    "province": ("İl", "Province"),
    "sector": ("Sektör", "Sector"),
    "authority-type": ("İdare türü", "Authority type"),
    "procedure": ("İhale usulü", "Procedure"),
    "tender": ("İhale", "Tender"),
    "direct": ("Doğrudan temin", "Direct purchase"),
    "headquartered": ("Merkezi bu ilde", "Headquartered here"),
}


def _in(pair: tuple[str, str], lang: str) -> str:
    tr, en = pair
    return tr if lang == "tr" else en


def option_text(value: str, lang: str) -> str:
    """An API value in the reader's language; values without a translation (names, years) as they are."""
    return _in(OPTIONS[value], lang) if value in OPTIONS else value


def field_text(name: str, lang: str) -> str:
    """An API field as a column heading; unknown fields as they are."""
    return _in(FIELDS[name], lang) if name in FIELDS else name


def text(key: str, lang: str) -> str:
    return _in(LABELS[key], lang)


def unit_text(unit: str, count: float | None, lang: str) -> str:
    """The noun a count is written with (`lots`, `tenders`, `contracts`): 1 lot, 2 lots; 1 kısım, 2 kısım."""
    tr, one, many = UNITS[unit]
    return tr if lang == "tr" else one if count == 1 else many


def news_value(value: str, lang: str) -> str:
    """A news source, category or sentiment id in the reader's language; an unknown id as it is."""
    return _in(NEWS_VALUES[value], lang) if value in NEWS_VALUES else value


def dataset_text(name: str, lang: str) -> str:
    """A release's dataset name in the reader's language; an unknown one as it is."""
    return _in(DATASETS[name], lang) if name in DATASETS else name
