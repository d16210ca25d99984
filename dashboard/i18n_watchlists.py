"""The labels of following awards (the Follow buttons, the Watchlists page, the visitor's own key), in Turkish
and English: part of the one catalogue of `dashboard/i18n.py`, which merges them."""

from __future__ import annotations

WATCH_LABELS: dict[str, tuple[str, str]] = {
    "watchlists": ("İzleme listeleri", "Watchlists"),
    "follow": ("Takip et", "Follow"),
    "follow_help": ("Bu filtrelerle bir izleme listesi kurun: her yeni yayında bu filtrelere uyan yeni sözleşmeler "
                    "İzleme listeleri sayfasında gösterilir; bir e-posta adresi verirseniz haftalık özet de gönderilir. Dönem "
                    "seçimi ve sıralama kaydedilmez: liste her yılın sözleşmelerini izler.",
                    "Save these filters as a watchlist: after each new release, the new awards matching them are "
                    "shown on the Watchlists page; give an e-mail address to get a weekly digest as well. The period and "
                    "the order are not saved: a list follows the awards of every year."),
    "follow_name": ("Listenin adı", "Name of the list"),
    "follow_email": ("Haftalık özet için e-posta (isteğe bağlı)", "E-mail for the weekly digest (optional)"),
    "follow_email_help": ("Önce bu adrese bir onay bağlantısı gider; bağlantı açılıp onaylanmadan özet gönderilmez.",
                          "A confirmation link goes to that address first; no digest is sent until it is confirmed."),
    "follow_save": ("İzleme listesini kaydet", "Save the watchlist"),
    "follow_saved": ("“{name}” izleme listesi kaydedildi.", "The watchlist “{name}” is saved."),
    "follow_confirm_sent": ("{address} adresine bir onay bağlantısı gönderildi.",
                            "A confirmation link was sent to {address}."),
    "follow_filters": ("Takip edilecek filtreler", "Filters to follow"),
    "follow_everything": ("Filtre yok: tüm yeni sözleşmeler", "No filter: every new award"),
    "follow_name_needed": ("Listeye 1–100 karakterlik bir ad verin.", "Give the list a name of 1 to 100 characters."),
    "follow_too_many": ("Anahtarınızın 50 izleme listesi var, bir anahtarın tutabileceği en çok sayı; yenisi için "
                        "İzleme listeleri sayfasından birini silin.",
                        "Your key holds 50 watchlists, the most a key may; delete one on the Watchlists page to "
                        "add another."),
    "open_watchlists": ("İzleme listelerine git", "Go to the watchlists"),
    "all_awards_name": ("Tüm sözleşmeler", "All awards"),
    "min_value": ("En az sözleşme bedeli (TL)", "Least contract value (TRY)"),
    "min_value_help": ("Bu tutar ve üzeri sözleşmeler. Sözleşme tablosu bu filtreyi henüz uygulamaz; yalnız "
                       "takip ettiğiniz izleme listesine kaydedilir.",
                       "Contracts of at least this amount. The awards table does not apply this filter yet; it is "
                       "saved only in the watchlist you follow."),
    "min_value_not_applied": ("En az bedel ({value}) aşağıdaki tabloya uygulanmaz; yalnız izleme listesine "
                              "kaydedilir.",
                              "The least value ({value}) is not applied to the table below; it is saved only in the "
                              "watchlist."),
    "needs_own_key": ("İzleme listeleri kendi API anahtarınıza aittir: bu panelin ortak anahtarıyla kurulsalardı "
                      "her ziyaretçi herkesinkini görür ve silebilirdi. Önce API anahtarı sayfasında bir anahtar "
                      "alın ya da elinizdeki anahtarı girin.",
                      "Watchlists belong to your own API key: were they kept under this dashboard's shared key, "
                      "every visitor would see and delete everyone's. First get a key on the API key page, or "
                      "enter the one you have there."),
    "go_to_api_key": ("API anahtarı sayfasına git", "Go to the API key page"),
    "own_key": ("Kendi anahtarınızla kullanın", "Use your own key"),
    "own_key_help": ("İzleme listeleriniz bu anahtara aittir. Anahtar yalnız bu tarayıcı oturumunda tutulur "
                     "(sayfayı yenilemek ya da yeni sekme açmak onu unutturur); adres çubuğuna ya da başka bir yere "
                     "yazılmaz. Panel içindeki bağlantılar oturumu korur.",
                     "Your watchlists belong to this key. It is kept for this browser session only (reloading the "
                     "page or opening a new tab forgets it), never in the address or anywhere else. Links within "
                     "the dashboard keep the session."),
    "own_key_input": ("API anahtarınız", "Your API key"),
    "own_key_use": ("Bu anahtarı kullan", "Use this key"),
    "own_key_in_use": ("Kendi anahtarınız kullanılıyor (…{tail}).", "Your own key is in use (…{tail})."),
    "own_key_forget": ("Anahtarı unut", "Forget the key"),
    "own_key_set_from_signup": ("Bu anahtar bu oturumda izleme listeleriniz için de kullanılıyor.",
                                "This key is also used for your watchlists in this session."),
    "watchlists_intro": ("API anahtarınızın izleme listeleri, en yenisi önce; her birinin altında son yayında "
                         "gelen yeni sözleşmeler. Her sayfa anahtarınızdan 1 kredi harcar.",
                         "Your API key's watchlists, newest first; under each, the awards new in the latest "
                         "release. Each page costs your key 1 credit."),
    "watchlists_none": ("Henüz izleme listeniz yok. Sözleşme gezgininde ya da bir profilde “Takip et” düğmesiyle "
                        "kurun.",
                        "No watchlist yet. Create one with the “Follow” button of the awards explorer or of a "
                        "profile."),
    "watch_filters": ("Filtreler", "Filters"),
    "watch_created": ("Kuruluş: {date}", "Created {date}"),
    "digest_none": ("Haftalık özet: yok", "Weekly digest: none"),
    "digest_waiting": ("Haftalık özet: {address} onay bekliyor", "Weekly digest: {address} waiting for confirmation"),
    "digest_confirmed": ("Haftalık özet: {address} onaylı", "Weekly digest: {address} confirmed"),
    "digest_unsubscribed": ("Haftalık özet: {address} abonelikten çıktı", "Weekly digest: {address} unsubscribed"),
    "new_awards": ("Yeni sözleşmeler", "New awards"),
    "new_since": ("{since} yayınından bu yana yeni olanlar", "New since release {since}"),
    "new_since_first": ("Önceki yayın yok: eşleşen her sözleşme yeni sayılır", "No earlier release: every matching "
                        "award counts as new"),
    "watch_delete": ("Sil", "Delete"),
    "watch_deleted": ("“{name}” silindi.", "“{name}” was deleted."),
    "watch_in_explorer": ("Aynı filtrelerle sözleşme gezgininde aç", "Open in the awards explorer with the same filters"),
    "filter_authority": ("İdare {id}", "Authority {id}"),
    "filter_contractor": ("Yüklenici {id}", "Contractor {id}"),
    "filter_min_value": ("En az {value}", "At least {value}"),
    "filter_supplier_province": ("Tedarikçi ili {name}", "Supplier in {name}"),
    "filter_flags": ("Bayrak: {names}", "Flag: {names}"),
}
