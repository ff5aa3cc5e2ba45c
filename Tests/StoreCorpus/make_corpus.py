#!/usr/bin/env python3
"""Writes the corpus of damaged stores that StoreCorpusTests replays.

Input: good.sqlite beside this script, a small nested-list store (Models.nestedList(),
page size 1024, 60 items) written by OpenCoreData itself:

    OCD_WRITE_GOOD_STORE=1 swift test --filter StoreCorpusTests/writeTheGoodStore
    python3 Tests/StoreCorpus/make_corpus.py

Output: cases/<name>/ with the store file (and any -wal, -shm or -journal beside it) and
manifest.json, one entry per case with the expected outcome of a plain open ("expect")
and of an open with PersistentStoreOption.verifiesOnOpen ("verified"): "opens" or the
name of the CoreDataError code, and for "opens" the number of Item rows it holds.
python3 and its standard library only; noise comes from a seeded generator, so every
file is the same from run to run except the hot journal, whose header holds SQLite's
random checksum nonce.
"""
import json
import os
import plistlib
import random
import shutil
import sqlite3
import struct
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD_PATH = os.path.join(HERE, "good.sqlite")
CASES = os.path.join(HERE, "cases")
ROWS = 60
PAGE = 1024

with open(GOOD_PATH, "rb") as f:
    GOOD = f.read()
assert GOOD[:16] == b"SQLite format 3\0" and struct.unpack(">H", GOOD[16:18])[0] == PAGE
random_bytes = random.Random(20261124).randbytes
manifest = []


def case(name, description, expect, verified=None, rows=None, files=None):
    """Writes one case; `files` maps file names to bytes (default: the good store)."""
    folder = os.path.join(CASES, name)
    os.makedirs(folder)
    for file_name, data in (files or {"store.sqlite": GOOD}).items():
        with open(os.path.join(folder, file_name), "wb") as f:
            f.write(data)
    verified = verified or expect
    entry = {"name": name, "description": description, "expect": expect, "verified": verified}
    if "opens" in (expect, verified):
        entry["rows"] = ROWS if rows is None else rows
    manifest.append(entry)


def patched(data, offset, replacement):
    return data[:offset] + replacement + data[offset + len(replacement):]


def flipped(data, start, end):
    return data[:start] + bytes(b ^ 0x5A for b in data[start:end]) + data[end:]


def with_sqlite(statements, journal_copy=False):
    """The good store after `statements` ran on a copy; with `journal_copy`, the last
    statement runs in a transaction that spills to the file, and the file and its hot
    journal are returned as a crash would leave them."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "store.sqlite")
        with open(path, "wb") as f:
            f.write(GOOD)
        db = sqlite3.connect(path, isolation_level=None)
        for statement in statements[:-1] if journal_copy else statements:
            db.execute(statement)
        if journal_copy:
            db.execute("PRAGMA cache_size = 10")
            db.execute("BEGIN IMMEDIATE")
            db.execute(statements[-1])
            files = {}
            for suffix in ("", "-journal"):
                with open(path + suffix, "rb") as f:
                    files["store.sqlite" + suffix] = f.read()
            db.execute("ROLLBACK")
            db.close()
            return files
        db.close()
        assert not os.path.exists(path + "-wal")
        with open(path, "rb") as f:
            return {"store.sqlite": f.read()}


def query(sql, *arguments):
    """The first value `sql` reads from the good store."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "store.sqlite")
        with open(path, "wb") as f:
            f.write(GOOD)
        db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        (value,) = db.execute(sql, arguments).fetchone()
        db.close()
        return value


def main():
    shutil.rmtree(CASES, ignore_errors=True)
    pages = len(GOOD) // PAGE
    case("good", "the store as written", "opens")
    case("header-change-counter", "change counter differs from version-valid-for: SQLite sizes the file itself",
         "opens", files={"store.sqlite": patched(GOOD, 24, b"\x00\x00\x99\x99")})

    # Truncations.
    case("empty-0-bytes", "zero-length file: a creation that never started; becomes the store",
         "opens", rows=0, files={"store.sqlite": b""})
    case("truncated-50", "the magic and half a header", "storeCorrupt", files={"store.sqlite": GOOD[:50]})
    case("truncated-100", "the header only", "storeCorrupt", files={"store.sqlite": GOOD[:100]})
    case("truncated-half", "half the pages", "storeCorrupt", files={"store.sqlite": GOOD[:pages // 2 * PAGE]})
    case("truncated-page-boundary-minus-1", "three pages less one byte", "storeCorrupt",
         files={"store.sqlite": GOOD[:3 * PAGE - 1]})
    case("truncated-one-byte", "one byte short", "storeCorrupt", files={"store.sqlite": GOOD[:-1]})

    # Header fields (https://sqlite.org/fileformat.html#the_database_header).
    case("header-magic", "first byte of the magic string changed", "notAStore",
         files={"store.sqlite": patched(GOOD, 0, b"s")})
    case("header-page-size", "page size 3000", "storeCorrupt", files={"store.sqlite": patched(GOOD, 16, struct.pack(">H", 3000))})
    case("header-page-size-65536", "page size 65536 (stored as 1) for a file of 1024-byte pages", "storeCorrupt",
         files={"store.sqlite": patched(GOOD, 16, b"\x00\x01")})
    case("header-write-version", "file format write version 7", "storeCorrupt", files={"store.sqlite": patched(GOOD, 18, b"\x07")})
    case("header-reserved-space", "232 reserved bytes per page: legal in a header (checksum and encryption VFSs "
         "reserve some), read past by a plain open; quick_check finds cells in the reserved bytes", "opens",
         verified="storeCorrupt", files={"store.sqlite": patched(GOOD, 20, b"\xe8")})
    case("header-payload-fraction", "maximum embedded payload fraction 65", "storeCorrupt",
         files={"store.sqlite": patched(GOOD, 21, b"\x41")})
    case("header-page-count", "in-header page count one too many", "storeCorrupt",
         files={"store.sqlite": patched(GOOD, 28, struct.pack(">I", pages + 1))})
    case("header-freelist-trunk", "first freelist trunk page beyond the file", "storeCorrupt",
         files={"store.sqlite": patched(GOOD, 32, struct.pack(">I", 0xFFFF))})
    case("header-freelist-count", "freelist page count beyond the file", "storeCorrupt",
         files={"store.sqlite": patched(GOOD, 36, struct.pack(">I", 5000))})
    case("header-schema-format", "schema format number 9", "storeCorrupt", files={"store.sqlite": patched(GOOD, 44, struct.pack(">I", 9))})
    case("header-text-encoding", "text encoding 9", "storeCorrupt", files={"store.sqlite": patched(GOOD, 56, struct.pack(">I", 9))})
    case("header-reserved-for-expansion", "a reserved-for-expansion byte (72-91) set", "storeCorrupt",
         files={"store.sqlite": patched(GOOD, 80, b"\x01")})

    # B-tree pages.
    case("schema-page", "sqlite_master's cells on page 1 scribbled over", "storeCorrupt",
         files={"store.sqlite": flipped(GOOD, 100 + 8, PAGE)})
    item_root = query("SELECT rootpage FROM sqlite_master WHERE name = ?", "ZITEM")
    case("btree-root-page", "ZITEM's root (interior) page's cells flipped: counts use the index and max(Z_PK) the "
         "intact right-most pointer, so only quick_check sees it", "opens", verified="storeCorrupt",
         files={"store.sqlite": flipped(GOOD, (item_root - 1) * PAGE + 12, item_root * PAGE)})
    leaf = pages  # the last page: a leaf of ZITEM or of its index
    case("btree-leaf-page", "the last page's cells flipped: read past by a plain open", "opens", verified="storeCorrupt",
         files={"store.sqlite": flipped(GOOD, (leaf - 1) * PAGE + 200, leaf * PAGE)})

    # Z_METADATA.
    plist_at = GOOD.index(b"bplist00")
    case("metadata-plist-key", "NSStoreUUID renamed in the metadata plist", "storeCorrupt",
         files={"store.sqlite": GOOD.replace(b"NSStoreUUID", b"NSStoreUUIX", 1)})
    case("metadata-plist-header", "the plist's magic flipped", "storeCorrupt",
         files={"store.sqlite": flipped(GOOD, plist_at, plist_at + 8)})
    hashes = plistlib.loads(query("SELECT Z_PLIST FROM Z_METADATA"))["NSStoreModelVersionHashes"]
    digest = next(iter(hashes.values()))
    at = GOOD.index(digest)
    case("metadata-version-hash", "a byte of the entity's version hash flipped", "incompatibleModel",
         files={"store.sqlite": flipped(GOOD, at, at + 1)})
    case("metadata-empty", "Z_METADATA with no row", "storeCorrupt", files=with_sqlite(["DELETE FROM Z_METADATA"]))
    case("primary-key-counter-behind", "Z_PRIMARYKEY.Z_MAX below max(Z_PK): healed at open", "opens",
         files=with_sqlite(["UPDATE Z_PRIMARYKEY SET Z_MAX = 1"]))

    # Side files.
    case("garbage-wal", "4 KiB of noise as the -wal", "opens",
         files={"store.sqlite": GOOD, "store.sqlite-wal": random_bytes(4096)})
    case("garbage-shm", "32 KiB of noise as the -shm", "opens",
         files={"store.sqlite": GOOD, "store.sqlite-shm": random_bytes(32768)})
    case("garbage-wal-and-shm", "noise as both -wal and -shm", "opens",
         files={"store.sqlite": GOOD, "store.sqlite-wal": random_bytes(4096), "store.sqlite-shm": random_bytes(32768)})
    case("hot-journal", "a crash mid-transaction in DELETE mode: the journal restores the 60 items", "opens",
         files=with_sqlite(["PRAGMA journal_mode = DELETE",
                            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) "
                            "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZORDER) "
                            "SELECT 1000 + i, 1, 1, printf('%.300c', 'x'), 0 FROM n"], journal_copy=True))

    # Other databases and files.
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.sqlite")
        db = sqlite3.connect(empty, isolation_level=None)
        db.execute("PRAGMA page_size = 1024")
        db.execute("PRAGMA journal_mode = WAL")
        db.close()
        foreign = os.path.join(tmp, "foreign.sqlite")
        db = sqlite3.connect(foreign, isolation_level=None)
        db.execute("PRAGMA page_size = 1024")
        db.execute("CREATE TABLE people (name TEXT)")
        db.execute("INSERT INTO people VALUES ('x')")
        db.close()
        other = os.path.join(tmp, "other.sqlite")
        db = sqlite3.connect(other, isolation_level=None)
        db.execute("PRAGMA page_size = 1024")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA wal_autocheckpoint = 0")
        db.execute("CREATE TABLE people (name TEXT)")
        db.execute("INSERT INTO people VALUES ('x')")
        with open(other + "-wal", "rb") as f:
            case("mispaired-wal", "another database's -wal beside the store: SQLite cannot tell and reads that "
                 "database's schema, so the open is refused and both files are kept",
                 "notAStore", files={"store.sqlite": GOOD, "store.sqlite-wal": f.read()})
        db.close()
        with open(empty, "rb") as f:
            case("empty-schema", "journal_mode set, no table: a creation killed before its schema committed; becomes the store",
                 "opens", rows=0, files={"store.sqlite": f.read()})
        with open(foreign, "rb") as f:
            case("foreign-database", "a SQLite database with tables but no Z_METADATA", "notAStore", files={"store.sqlite": f.read()})
    case("json-file", "a JSON document", "notAStore", files={"store.sqlite": b'{"this is": "json, not a store"}\n'})
    case("png-file", "a PNG signature and header", "notAStore",
         files={"store.sqlite": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200)})
    case("random-bytes", "512 bytes of noise", "notAStore", files={"store.sqlite": random_bytes(512)})

    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
