#!/usr/bin/env python3
"""Writes the seed corpus: varied valid and invalid predicate formats (seeded, reproducible).

    python3 Fuzz/make_seeds.py   # writes Fuzz/Corpus/seed-NNNN
"""
import hashlib
import os
import random

rng = random.Random(20261121)
here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "Corpus")

KEYS = ["a", "title", "parent.title", "items", "tags.name", "#first", "items.@count", "items.@sum.price", "SELF", "$x", "%K"]
CONSTANTS = ["1", "-2", "0x1F", "0o7", "0b11", "1.5e-3", "'x'", '"y"', "nil", "NULL", "TRUE", "NO", "%@", "%d", "%f", "%s",
             "$VALUE", "{1, 2}", "{a, 'b'}", "CAST(0, 'NSDate')", "CAST('1.5', 'NSDecimalNumber')", "'\\u00e9\\n'", "now()"]
OPERATORS = ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH",
             "CONTAINS", "IN", "BETWEEN"]
OPTIONS = ["", "", "", "[c]", "[d]", "[cd]", "[n]"]
MODIFIERS = ["", "", "", "ANY ", "ALL ", "NONE ", "SOME "]


def expression(depth):
    if depth <= 0 or rng.random() < 0.4:
        return rng.choice(KEYS + CONSTANTS)
    choice = rng.randrange(11)
    inner = lambda: expression(depth - 1)
    if choice == 0:
        return f"{inner()} {rng.choice(['+', '-', '*', '/', '**'])} {inner()}"
    if choice == 1:
        return f"-{inner()}"
    if choice == 2:
        return f"({inner()})"
    if choice == 3:
        return "{" + ", ".join(inner() for _ in range(rng.randrange(4))) + "}"
    if choice == 4:
        return f"{rng.choice(KEYS)}[{rng.choice(['FIRST', 'LAST', 'SIZE', '0', inner()])}]"
    if choice == 5:
        return f"SUBQUERY({inner()}, $x, {predicate(depth - 1)}).@count"
    if choice == 6:
        return f"FUNCTION({inner()}, 'f:', {inner()})"
    if choice == 7:
        return f"TERNARY({predicate(depth - 1)}, {inner()}, {inner()})"
    if choice == 8:
        return f"{rng.choice(['sqrt', 'abs', 'lowercase', 'sum:', 'count', 'trunc'])}({inner()})"
    if choice == 9:
        return f"{inner()} {rng.choice(['UNION', 'INTERSECT', 'MINUS'])} {inner()}"
    return f"CAST({inner()}, 'NSString')"


def predicate(depth):
    if depth <= 0 or rng.random() < 0.5:
        if rng.random() < 0.1:
            return rng.choice(["TRUEPREDICATE", "FALSEPREDICATE"])
        return f"{rng.choice(MODIFIERS)}{expression(depth)} {rng.choice(OPERATORS)}{rng.choice(OPTIONS)} {expression(depth)}"
    choice = rng.randrange(4)
    if choice == 0:
        return f"NOT {predicate(depth - 1)}"
    if choice == 1:
        return f"({predicate(depth - 1)})"
    joiner = rng.choice([" AND ", " OR ", " && ", " || "])
    return joiner.join(predicate(depth - 1) for _ in range(rng.randrange(2, 4)))


def mutate(text):
    """An invalid variant: cut, a stray token, a swapped character, or a deleted character."""
    kind = rng.randrange(4)
    if kind == 0 and len(text) > 1:
        return text[: rng.randrange(1, len(text))]
    position = rng.randrange(len(text) + 1)
    if kind == 1:
        return text[:position] + rng.choice([")", "(", "{", "]", "'", '"', "\\", "@", "%", "$", "#", "?", ":", "AND"]) + text[position:]
    if kind == 2 and text:
        position = min(position, len(text) - 1)
        return text[:position] + rng.choice("()[]{}'\"%$#@!-*") + text[position + 1:]
    return text[:position] + text[position + 1:]


def main():
    os.makedirs(corpus, exist_ok=True)
    formats = set()
    while len(formats) < 300:
        formats.add(predicate(rng.randrange(1, 5)))
    valid = sorted(formats)
    invalid = {mutate(rng.choice(valid)) for _ in range(150)}
    hostile = ["(" * 200 + "a == 1" + ")" * 200, "NOT " * 150 + "a == 1", "a == " + "-" * 300 + "1",
               "a == " + "{" * 150 + "}" * 150, "a == 1" + " + 1" * 200, "a" + "[0]" * 200 + " == 1",
               "", " ", "\x00", "'", "\\", "%", "$", "#", "0x", "1e", "a ==", "== a"]
    for text in valid + sorted(invalid) + hostile:
        name = "seed-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]
        with open(os.path.join(corpus, name), "w", encoding="utf-8") as file:
            file.write(text)


main()
