"""Writes facts.txt: 320 deterministic short facts (8-30 words) for the encoder benchmark.

The sentences are assembled from templates with a fixed seed so that the Swift and the
PyTorch measurements read exactly the same input. Run: python3 make_facts.py
"""
import random

rng = random.Random(20250115)
people = ["my sister", "the user", "my manager", "our neighbour", "my aunt", "a colleague from Lisbon",
          "my oldest friend", "the new intern", "my grandmother", "the landlord"]
verbs = ["prefers", "enjoys", "dislikes", "is learning", "recently started", "wants to try",
         "has been practising", "stopped", "often talks about", "is allergic to"]
things = ["rock climbing on weekends", "green tea instead of coffee", "SwiftUI over UIKit",
          "running ten kilometres before work", "Portuguese cooking", "reading science fiction novels",
          "playing the piano in the evening", "peanuts and shellfish", "long train journeys across Europe",
          "vintage mechanical keyboards", "sourdough baking", "chess openings", "birdwatching in the park",
          "photography with old film cameras", "learning Japanese with flashcards"]
tails = ["", "since last spring", "because it helps with stress", "every Sunday morning",
         "according to a conversation in March", "and mentioned it twice this week",
         "although the schedule is tight at the moment", "together with two friends from university",
         "after moving to Braga in 2023", "and plans to keep doing it for the rest of the year",
         "but only when the weather is good and there is nothing urgent at work"]
facts = []
while len(facts) < 320:
    s = f"{rng.choice(people).capitalize()} {rng.choice(verbs)} {rng.choice(things)}"
    t = rng.choice(tails)
    if t:
        s += " " + t
    s += "."
    if 8 <= len(s.split()) <= 30 and s not in facts:
        facts.append(s)
with open("facts.txt", "w", encoding="utf-8") as f:
    f.write("\n".join(facts) + "\n")
words = [len(s.split()) for s in facts]
print(len(facts), "facts, words min/mean/max", min(words), sum(words) / len(words), max(words))
