"""Personal data values drawn by Faker (joke2k/faker, MIT), for bench/pii/faker-bench.ts.

    python faker_values.py OUT.json [PER_LOCALE] [SEED]

Writes [{locale, name, address, phone, company, city, card, job, country, age, first, last, prefix, nationality}] for the locales of the EU, the UK, the
US, Canada, Australia and Latin America: names, street addresses, phone numbers, companies and cities in each locale's
own formats, a card number of a random issuer, an English job title, a country's English name and an adult's age. Faker's providers are a third party's; the project's own generator
(generate.ts) draws from the project's lists, which the recognizers also read.
"""
import json
import sys

from faker import Faker

# Names only, in four carriers: the countries the address locales above leave out (Faker's own name formats).
NAME_LOCALES = [
    "en_IN", "en_PH", "tr_TR", "vi_VN", "id_ID", "yo_NG", "zu_ZA", "fi_FI", "hu_HU", "cs_CZ", "ro_RO", "sv_SE",
    "da_DK", "no_NO", "sk_SK", "hr_HR", "sl_SI", "et_EE", "lv_LV", "lt_LT", "en_NZ", "fr_CA", "de_AT", "de_CH",
    "it_CH", "fr_CH", "nl_BE", "es_CL", "tw_GH", "sw", "ga_IE", "fil_PH", "az_AZ", "uz_UZ", "ka_GE", "hy_AM",
]
LOCALES = ["en_US", "en_GB", "en_CA", "en_AU", "en_IE", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pl_PL", "pt_PT", "es_MX", "pt_BR", "es_AR", "es_CO"]


def main():
    out = sys.argv[1]
    per_locale = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20261128
    english = Faker("en_US")
    english.seed_instance(seed)
    rows = []
    for i, locale in enumerate(LOCALES):
        f = Faker(locale)
        f.seed_instance(seed + i)
        for _ in range(per_locale):
            rows.append(
                {
                    "locale": locale,
                    "name": f.name(),
                    "address": f.address(),
                    "phone": f.phone_number(),
                    "company": f.company(),
                    "card": english.credit_card_number(),
                    "job": english.job(),
                    "city": f.city(),
                    "country": english.country(),
                    "age": str(english.random_int(18, 95)),
                }
            )
    # A first name, a surname and an honorific of each row's locale for the fourth carrier set, from Faker instances of
    # their own, so that the values above stay what they were for every seed.
    for i, locale in enumerate(LOCALES):
        f = Faker(locale)
        f.seed_instance(seed + 1000 + i)
        for row in [r for r in rows if r["locale"] == locale]:
            row["first"] = f.first_name()
            row["last"] = f.last_name()
            # Faker's French and Spanish "prefixes" are surname particles ("de", "du", "Le"), not honorifics.
            prefix = f.prefix()
            row["prefix"] = prefix if prefix[:1].isupper() and prefix != "Le" else english.prefix()
    # Nationalities (demonyms) for the fifth carrier set, from mimesis (MIT), which Faker lacks; seeded apart as well.
    try:
        from mimesis import Person
        from mimesis.locales import Locale

        demonyms = Person(Locale.EN, seed=seed + 2000)
        for row in rows:
            row["nationality"] = demonyms.nationality()
    except ImportError:
        for row in rows:
            row["nationality"] = ""
    more_names = []
    for i, locale in enumerate(NAME_LOCALES):
        f = Faker(locale)
        f.seed_instance(seed + 100 + i)
        more_names += [[locale, f.name()] for _ in range(15)]
    json.dump({"faker": __import__("faker").VERSION, "seed": seed, "rows": rows, "more_names": more_names}, open(out, "w"), ensure_ascii=False)


if __name__ == "__main__":
    main()
