"""Reference lists shipped with the package: provinces, sectors, authority types, procedures.

Sources: province points are the provincial capitals' coordinates from GeoNames (geonames.org,
CC BY 4.0; `geonameid` in provinces.csv names each record); sectors follow the divisions of the
EU Common Procurement Vocabulary (Regulation (EC) No 213/2008) that Türkiye's e-procurement
platform (EKAP) uses; procedures follow Public Procurement Law No. 4734.
"""
