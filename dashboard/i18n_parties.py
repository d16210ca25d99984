"""The labels of the party search, the profiles and the awards explorer, in Turkish and English: part of
the one catalogue of `dashboard/i18n.py`, which merges them (kept apart so that each module stays short)."""

from __future__ import annotations

PARTY_LABELS: dict[str, tuple[str, str]] = {
    "awards": ("Sözleşmeler", "Awards"),
    "profile": ("Profil", "Profile"),
    "find_party": ("İdare veya yüklenici ara", "Find an authority or a contractor"),
    "find_placeholder": ("Adından birkaç sözcük", "A few words of the name"),
    "find_help": ("Büyük-küçük harf ve Türkçe harfler fark etmez: istanbul, İSTANBUL ve Istanbul aynı sonuçları "
                  "bulur. Enter ile arayın.",
                  "Case and Turkish letters do not matter: istanbul, İSTANBUL and Istanbul find the same. Press "
                  "Enter to search."),
    "find_none": ("Bu adla idare ya da yüklenici bulunamadı.", "No authority or contractor by that name."),
    "find_more": ("{shown} / {total} eşleşme", "{shown} of {total} matches"),
    "kind_authority": ("İdare", "Authority"),
    "kind_contractor": ("Yüklenici", "Contractor"),
    "kinds_authority": ("İdareler", "Authorities"),
    "party_authority": ("idare", "authority"),
    "party_contractor": ("yüklenici", "contractor"),
    "kinds_contractor": ("Yükleniciler", "Contractors"),
    "profile_pick": ("Bir idare ya da yüklenicinin profilini açmak için kenar çubuğundaki arama kutusunu kullanın.",
                     "To open the profile of an authority or a contractor, use the search box in the sidebar."),
    "profile_not_found": ("Sunulan yayında bu numarayla bir {kind} yok: {id}.",
                          "There is no {kind} with this id in the release served: {id}."),
    "value": ("Sözleşme tutarı", "Contract value"),
    "value_by_year": ("Yıllara göre sözleşme tutarı", "Contract value by year"),
    "amounts_nominal": ("Tutarlar cari TL ile; her yıl kendi fiyatlarıyla.", "Amounts in nominal TRY, each year in its "
                        "own prices."),
    "local_share": ("Yerel pay", "Local share"),
    "hhi_suppliers": ("Tedarikçi yoğunlaşması (HHI)", "Supplier concentration (HHI)"),
    "counterparts_authority": ("Tutara göre ilk 10 yüklenicisi", "Its top 10 contractors by value"),
    "counterparts_contractor": ("Tutara göre ilk 10 idaresi", "Its top 10 authorities by value"),
    "counterparts_note_authority": ("Pay: idarenin dönemdeki {n} sözleşmesinin toplam tutarı içinde.",
                                    "Share: of the total value of the authority's {n} contracts in the period."),
    "counterparts_note_contractor": ("Pay: yüklenicinin dönemde kazandığı {n} sözleşmenin toplam tutarı içinde.",
                                     "Share: of the total value of the {n} contracts the contractor won in the "
                                     "period."),
    "sectors": ("Sektörler", "Sectors"),
    "map_authority": ("Yüklenicilerinin illeri (merkez) · {period}", "Where its contractors are based · {period}"),
    "map_contractor": ("Alıcı idarelerin illeri · {period}", "Where the authorities it sells to are · {period}"),
    "map_value": ("Sözleşme tutarı", "Contract value"),
    "red_flags": ("Kırmızı bayraklar", "Red flags"),
    "flags_note": ("Her bayrak, dönemdeki {n} sözleşmeden kaçının onu taşıdığını gösterir; bir bayrak bir "
                   "soruyu işaret eder, bir kanıt değildir.",
                   "Each flag counts how many of the period's {n} contracts carry it; a flag marks a question, "
                   "not proof."),
    "single_bid_counts": ("Sayılan: teklif alan kısımlar; pay, yalnız bir teklif alanların oranıdır (aşağıdaki "
                          "\"tek geçerli teklif\" bayrağı ise sözleşmeleri sayar).",
                          "Counts lots that received bids: the share is those with a single bid (the \"single valid "
                          "bid\" red flag below counts contracts instead)."),
    "flag_counts": ("Sayılan: dönemin tüm sözleşmeleri; pay, bu bayrağı taşıyanların oranıdır.",
                    "Counts every contract of the period: the share is those carrying this flag."),
    "its_awards": ("Sözleşmeleri", "Its awards"),
    "open_profile": ("Profili aç", "Open profile"),
    "open_awards": ("Sözleşmeleri göster", "Show the awards"),
    "open_explorer": ("Sözleşme gezgininde aç", "Open in the awards explorer"),
    "counted_of": ("{value} ({n} {unit} üzerinden)", "{value} of {n} {unit}"),
    "counted_over": ("{value} ({n} {unit} üzerinden)", "{value} over {n} {unit}"),
    "counted_on": ("{n} {unit} üzerinden", "rests on {n} {unit}"),
    "counted_none": ("Dayanak yok (0 {unit})", "Nothing to rest on (0 {unit})"),
    "under_five": ("5'ten az vakaya dayanıyor: tek başına yorumlanamaz.",
                   "Rests on fewer than 5 cases: too few to read on its own."),
    "all_provinces": ("Tüm iller", "Every province"),
    "all_sectors": ("Tüm sektörler", "Every sector"),
    "all_procedures": ("Tüm usuller", "Every procedure"),
    "all_types": ("Tüm idare türleri", "Every authority type"),
    "authority_province": ("İdarenin ili", "Authority's province"),
    "authority_type": ("İdare türü", "Authority type"),
    "procedure": ("İhale usulü", "Procedure"),
    "authority_id": ("İdare no", "Authority id"),
    "contractor_id": ("Yüklenici no", "Contractor id"),
    "party_id_help": ("Profil sayfasından ya da aramadan gelen numara; boş bırakılırsa hepsi.",
                      "The id a profile or a search gives; empty for every one."),
    "flags_filter": ("Kırmızı bayrak (herhangi biri)", "Red flag (any of)"),
    "sort_date": ("Tarihe göre (yeni önce)", "By date (newest first)"),
    "sort_value": ("Tutara göre (büyük önce)", "By value (largest first)"),
    "awards_shown": ("{total} sözleşmeden {shown} tanesi gösteriliyor · tutarlar cari TL",
                     "Showing {shown} of {total} awards · amounts in nominal TRY"),
    "ikn_note": ("İKN (ihale kayıt numarası) ile her ilan EKAP'ta (ekap.kik.gov.tr) İhale Arama sayfasında "
                 "bulunur.",
                 "With its İKN (tender registration number) each notice can be found on EKAP (ekap.kik.gov.tr), "
                 "under tender search (İhale Arama)."),
    "benchmark": ("İndirim kıyası", "Discount benchmark"),
    "benchmark_pick": ("Tablodan bir sözleşme seçin: indirimi kendi sektörü, usulü ve yılındaki ihale indirimlerinin "
                       "dağılımında gösterilir.",
                       "Select an award in the table: its discount is placed in the distribution of tender discounts "
                       "of its sector, procedure and year."),
    "benchmark_title": ("{sector} · {procedure} · {period}", "{sector} · {procedure} · {period}"),
    "benchmark_n": ("Dağılım {n} ihaleye dayanıyor.", "The distribution rests on {n} tenders."),
    "benchmark_few": ("Bu grupta yalnız {n} {unit} var: 5'ten az olduğu için dağılımı verilmiyor.",
                      "This group holds only {n} {unit}: fewer than 5, so no distribution is given."),
    "benchmark_pooled": ("Aynı sektör ve usulün tüm yılları bir arada:", "The same sector and procedure, every year "
                         "pooled:"),
    "benchmark_no_discount": ("Bu sözleşmenin kendi indirimi yok: ihalesi birden çok kısımlı ya da yaklaşık "
                              "maliyeti 0.",
                              "This award has no discount of its own: its tender has several lots, or no "
                              "estimate above 0."),
    "benchmark_award": ("Bu sözleşme: {discount}", "This award: {discount}"),
    "bench_p10_p90": ("10.–90. yüzdelik", "10th–90th percentile"),
    "bench_p25_p75": ("25.–75. yüzdelik", "25th–75th percentile"),
    "bench_median": ("Medyan", "Median"),
    "bench_mean": ("Ortalama", "Mean"),
    "bench_award": ("Bu sözleşme", "This award"),
    "discount_axis": ("İndirim (1 − sözleşme bedeli / yaklaşık maliyet)",
                      "Discount (1 − contract value / estimated cost)"),
}

# The nouns a count is written with: Turkish keeps the singular after a number; English does not.
UNITS: dict[str, tuple[str, str, str]] = {
    "lots": ("kısım", "lot", "lots"),
    "tenders": ("ihale", "tender", "tenders"),
    "contracts": ("sözleşme", "contract", "contracts"),
}

PARTY_FIELDS: dict[str, tuple[str, str]] = {
    "tenderId": ("İKN", "İKN"), "tenderDate": ("İhale tarihi", "Tender date"),
    "tenderName": ("İhale adı", "Tender name"), "lot": ("Kısım", "Lot"), "lots": ("Kısım sayısı", "Lots"),
    "procedure": ("İhale usulü", "Procedure"), "authority.id": ("İdare no", "Authority id"),
    "authority.name": ("İdare", "Authority"), "authority.type": ("İdare türü", "Authority type"),
    "authority.province": ("İdarenin ili", "Authority's province"),
    "contractor.id": ("Yüklenici no", "Contractor id"), "contractor.name": ("Yüklenici", "Contractor"),
    "contractor.province": ("Yüklenicinin ili", "Contractor's province"),
    "estimatedCost": ("Yaklaşık maliyet (TL)", "Estimated cost (TRY)"),
    "contractValue": ("Sözleşme bedeli (TL)", "Contract value (TRY)"), "bids": ("Geçerli teklif", "Valid bids"),
    "discount": ("İndirim", "Discount"), "flags": ("Kırmızı bayraklar", "Red flags"),
    "value": ("Tutar (TL)", "Value (TRY)"), "share": ("Pay", "Share"), "type": ("Tür", "Type"),
    "profile": ("Profil", "Profile"),
}
PARTY_MONEY_FIELDS = frozenset({"estimatedCost", "contractValue", "value"})
PARTY_SHARE_FIELDS = frozenset({"discount", "share"})
