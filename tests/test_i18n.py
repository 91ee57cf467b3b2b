"""Interface languages: complete catalogs, every page in en/ja/zh-hans, switching, translated errors.

A missing translation fails here in three ways: an empty or fuzzy ``msgstr`` in a committed .po
file; a string in the code or templates that extraction finds but the .po files lack (a fresh
``makemessages`` run into a copy of the project); and template text outside ``{% translate %}``
(tests/i18n_lint.py). Pages are then rendered in each language and must show no English sentence
of the catalog untranslated.
"""
from __future__ import annotations

import ast
import gettext
import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.i18n_lint import template_problems

BASE = Path(settings.BASE_DIR)
LANGS = {"ja": "ja", "zh-hans": "zh_Hans"}  # language code -> locale directory
FIXTURES = BASE / "fixtures"


# -- the catalogs --------------------------------------------------------------------------------
def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file (written with --no-wrap: one line per string)."""
    out = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": "", "msgstr": []}
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] += line
            elif line.startswith("msgctxt "):
                entry["msgctxt"] = ast.literal_eval(line[8:])
            elif line.startswith("msgid "):
                entry["msgid"] = ast.literal_eval(line[6:])
            elif line.startswith("msgid_plural "):
                entry["msgid_plural"] = ast.literal_eval(line[13:])
            elif line.startswith("msgstr"):
                entry["msgstr"].append(ast.literal_eval(line.split(" ", 1)[1]))
            elif line.startswith('"') and entry.get("msgid"):
                raise AssertionError(f"{path}: wrapped line (run makemessages with --no-wrap): {line}")
        if entry.get("msgid"):
            out.append(entry)
    return out


@pytest.mark.parametrize("lang", LANGS.values())
def test_po_complete_no_fuzzy(lang):
    entries = po_entries(BASE / "locale" / lang / "LC_MESSAGES" / "django.po")
    assert len(entries) > 300
    empty = [e["msgid"] for e in entries if not all(e["msgstr"])]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not empty, f"{lang}: untranslated: {empty[:10]}"
    assert not fuzzy, f"{lang}: fuzzy: {fuzzy[:10]}"


@pytest.mark.parametrize("lang", LANGS.values())
def test_placeholders_kept(lang):
    for e in po_entries(BASE / "locale" / lang / "LC_MESSAGES" / "django.po"):
        for src in filter(None, (e["msgid"], e.get("msgid_plural"))):
            want = sorted(re.findall(r"%\(\w+\)s|\{\}", src))
            for tr in e["msgstr"]:
                got = sorted(re.findall(r"%\(\w+\)s|\{\}", tr))
                if e.get("msgid_plural") and src == e["msgid"]:
                    continue  # the one plural form follows msgid_plural's placeholders
                assert set(got) <= set(want) and (got or not want), (lang, src, tr)


@pytest.mark.parametrize("lang", LANGS.values())
def test_committed_mo_matches_po(lang):
    """The compiled catalogs are committed (no msgfmt needed at install) and current."""
    folder = BASE / "locale" / lang / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as fh:
        mo = gettext.GNUTranslations(fh)
    for e in po_entries(folder / "django.po"):
        key = f"{e['msgctxt']}\x04{e['msgid']}" if "msgctxt" in e else e["msgid"]
        if "msgid_plural" in e:
            assert mo.ngettext(key, e["msgid_plural"], 1) == e["msgstr"][0], (lang, e["msgid"])
        else:
            assert mo.gettext(key) == e["msgstr"][0], f"{lang}: .mo out of date for {e['msgid']!r}: run compilemessages"


def test_templates_have_no_untranslated_text():
    problems = template_problems(BASE / "templates")
    assert not problems, f"text outside {{% translate %}}: {problems}"


@pytest.mark.skipif(not shutil.which("xgettext"), reason="needs GNU gettext (xgettext) to re-extract the strings")
def test_extraction_finds_nothing_new(tmp_path):
    """A fresh makemessages over a copy of the code finds no string missing from the .po files."""
    ignore = shutil.ignore_patterns(".venv", "var", ".git", "node_modules", "__pycache__", "*.mo", "*.po", "bench",
                                    "docs", "fixtures", "tests", "*.egg-info", ".ruff_cache", ".pytest_cache")
    copy = tmp_path / "src"
    shutil.copytree(BASE, copy, ignore=ignore)
    (copy / "locale" / "ja" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ja", "--no-wrap", "--no-location", "--no-obsolete"],
        cwd=copy, check=True, capture_output=True, env={**__import__("os").environ, "TCGDB_VAR_DIR": str(tmp_path / "var")},
    )
    fresh = {(e.get("msgctxt"), e["msgid"]) for e in po_entries(copy / "locale" / "ja" / "LC_MESSAGES" / "django.po")}
    for lang in LANGS.values():
        have = {(e.get("msgctxt"), e["msgid"]) for e in po_entries(BASE / "locale" / lang / "LC_MESSAGES" / "django.po")}
        missing = sorted(m for _, m in fresh - have)
        assert not missing, f"{lang}: strings not in the catalog (run makemessages, translate, compilemessages): {missing[:15]}"


# -- pages in three languages ----------------------------------------------------------------------
def english_sentences(lang_dir: str) -> list[str]:
    """Catalog sentences (3+ words, no placeholder or markup) whose translation differs from them."""
    out = []
    for e in po_entries(BASE / "locale" / lang_dir / "LC_MESSAGES" / "django.po"):
        m = e["msgid"]
        if len(m.split()) >= 3 and not re.search(r"[%{}<&]", m) and e["msgstr"][0] != m:
            out.append(m)
    return out


def visible_text(content: str) -> str:
    s = re.sub(r"<(script|style)\b.*?</\1>", " ", content, flags=re.S)
    s = re.sub(r"<[^>]+>", " ", s)
    return re.sub(r"\s+", " ", html.unescape(s))


@pytest.fixture
def site(db, django_user_model, settings, django_capture_on_commit_callbacks):
    """The sample catalog, a user with a WS deck, and a finished playtest of it."""
    from django.core.management import call_command

    from decks.services import deck_create
    from playtest.services import playtest_create
    from rules.decktext import parse_deck_text

    settings.PLAYTEST_EXECUTOR = "inline"
    settings.PLAYTEST_CHUNK_SIZE = 40
    call_command("load_sample_data", verbosity=0)
    user = django_user_model.objects.create_user("mika", password="pw-123456789")
    zones = parse_deck_text((FIXTURES / "decks" / "ws-skylark.txt").read_text()).zones()
    deck = deck_create(owner=user, game="ws", name="Skylark", zones=zones, description="", visibility="public")
    with django_capture_on_commit_callbacks(execute=True):
        job = playtest_create(game="ws", zones={"main": zones["main"]}, games=40, seed=7, session_key="s", owner=user)
    job.refresh_from_db()
    from catalog.models import Card

    card = Card.objects.filter(game="ws").first()
    return {"user": user, "deck": deck, "job": job, "card": card}


PAGES = [
    ("home", "/", {"ja": "ゲームごとに見る", "zh-hans": "按游戏浏览"}),
    ("search", "/cards/?q=t:character", {"ja": "該当カード", "zh-hans": "匹配的卡片"}),
    ("search error", "/cards/?q=foo:1", {"ja": "このクエリは実行できません", "zh-hans": "无法执行此查询"}),
    ("card", "card", {"ja": "カード情報", "zh-hans": "卡片数据"}),
    ("help", "/cards/help/", {"ja": "クエリ言語のフィールド", "zh-hans": "查询语言的字段"}),
    ("browse", "/cards/ws/", {"ja": "のセット", "zh-hans": "的系列"}),
    ("deck list", "/decks/", {"ja": "公開デッキ", "zh-hans": "公开卡组"}),
    ("deck", "deck", {"ja": "ドロー確率", "zh-hans": "抽卡概率"}),
    ("builder", "build", {"ja": "カードを探す", "zh-hans": "查找卡片"}),
    ("deck new", "/decks/new/", {"ja": "デッキを作成", "zh-hans": "创建卡组"}),
    ("history", "history", {"ja": "バージョン一覧", "zh-hans": "版本列表"}),
    ("login", "/accounts/login/", {"ja": "アカウントをお持ちでないですか", "zh-hans": "还没有账户"}),
    ("signup", "/accounts/signup/", {"ja": "アカウントを作成", "zh-hans": "创建账户"}),
    ("playtests", "/playtests/", {"ja": "一人回し", "zh-hans": "单人试玩"}),
    ("playtest new", "/playtests/new/", {"ja": "新しい一人回し", "zh-hans": "新的单人试玩"}),
    ("playtest report", "report", {"ja": "一人回しレポート", "zh-hans": "单人试玩报告"}),
    ("playtest game", "game", {"ja": "のリプレイ", "zh-hans": "局回放"}),
]
LOGGED_IN = {"builder", "deck new", "history"}


def _url(where: str, site: dict) -> str:
    deck, job, card = site["deck"], site["job"], site["card"]
    return {
        "card": f"/cards/{card.game}/{card.code}/", "deck": f"/decks/{deck.pk}/", "build": f"/decks/{deck.pk}/build/",
        "history": f"/decks/{deck.pk}/history/", "report": f"/p/{job.share_slug}/", "game": f"/p/{job.share_slug}/games/0/",
    }.get(where, where)


@pytest.mark.parametrize("lang", ["en", "ja", "zh-hans"])
def test_every_page_in_each_language(client, site, lang):
    sentences = english_sentences(LANGS[lang]) if lang != "en" else []
    for name, where, expected in PAGES:
        if name in LOGGED_IN:
            client.force_login(site["user"])
        else:
            client.logout()
        resp = client.get(_url(where, site), HTTP_ACCEPT_LANGUAGE=lang)
        assert resp.status_code in (200, 400), (name, resp.status_code)
        body = resp.content.decode()
        assert f'<html lang="{lang}">' in body, name
        text = visible_text(body)
        if lang == "en":
            assert not any(v in text for v in expected.values()), name
            continue
        assert expected[lang] in text, (lang, name)
        left = [s for s in sentences if s in text]
        assert not left, f"{lang} {name}: shown in English: {left}"


# -- choosing and switching the language ---------------------------------------------------------
@pytest.mark.django_db
def test_accept_language_picks_the_language(client):
    assert "カード検索" in client.get("/", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5").content.decode()
    assert "卡片检索" in client.get("/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()
    assert "卡片检索" in client.get("/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "Card search" in client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()


@pytest.mark.django_db
def test_switcher_form_sets_and_remembers_the_language(client):
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'action="/i18n/setlang/"' in home and 'name="language"' in home
    resp = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/cards/help/"})
    assert resp.status_code == 302 and resp["Location"] == "/cards/help/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    # the cookie wins over the browser's Accept-Language on every later page
    page = client.get("/decks/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="zh-hans">' in page and "公开卡组" in page
    assert '<option value="zh-hans" lang="zh-hans" selected>' in page
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert "公開デッキ" in client.get("/decks/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Public decks" in client.get("/decks/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()


# -- API errors: the code stays, the message is translated ---------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("query, code", [("foo:1", "unknown_field"), ("power>=abc", "bad_number"),
                                         ('"open', "unterminated_string"), ("t:nonsense", "bad_value")])
def test_search_error_in_each_language(client, query, code):
    bodies = {lang: client.get("/api/v1/cards/", {"q": query}, HTTP_ACCEPT_LANGUAGE=lang).json()["error"]
              for lang in ("en", "ja", "zh-hans")}
    assert {b["code"] for b in bodies.values()} == {code}
    assert len({b["params"]["position"] for b in bodies.values()}) == 1
    en, ja, zh = bodies["en"]["message"], bodies["ja"]["message"], bodies["zh-hans"]["message"]
    assert en.isascii() and not ja.isascii() and not zh.isascii() and ja != zh
    assert re.search(r"[\u3040-\u30ff]", ja), ja  # kana: Japanese, not Chinese
    assert not re.search(r"[\u3040-\u30ff]", zh), zh


@pytest.mark.django_db
def test_deck_validation_error_in_each_language(client):
    from tests.search_testdata import load_fixture_cards

    load_fixture_cards()
    text = (FIXTURES / "decks" / "ws-skylark.txt").read_text()
    short = "\n".join(text.splitlines()[:4])  # far too few cards
    out = {}
    for lang in ("en", "ja", "zh-hans"):
        resp = client.post("/api/v1/decks/validate/", {"game": "ws", "text": short}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE=lang)
        assert resp.status_code == 200, resp.content
        out[lang] = {e["code"]: e["message"] for e in resp.json()["errors"]}
    assert "deck_size" in out["en"] and out["en"].keys() == out["ja"].keys() == out["zh-hans"].keys()
    assert out["en"]["deck_size"].startswith("the main deck has")
    assert "メインデッキ" in out["ja"]["deck_size"] and "50" in out["ja"]["deck_size"]
    assert "主卡组" in out["zh-hans"]["deck_size"] and "50" in out["zh-hans"]["deck_size"]


@pytest.mark.django_db
def test_deck_page_messages_and_charts_translated(client, django_user_model):
    from tests.search_testdata import load_fixture_cards

    load_fixture_cards()
    user = django_user_model.objects.create_user("rin", password="pw-123456789")
    client.force_login(user)
    resp = client.post("/decks/new/", {"name": "T", "game": "ws", "visibility": "private", "text": "4 NOPE-001"},
                       HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    body = resp.content.decode()
    assert "デッキを作成しました。" in body
    assert "構築不可" in body and "不明なカード番号" in body and 'data-code="unknown_card"' in body


# -- card text with its language -----------------------------------------------------------------
@pytest.mark.django_db
def test_card_page_shows_the_readers_language(client):
    from catalog.models import Card
    from catalog.selectors import card_search
    from tests.search_testdata import make_card

    make_card(game="ws", code="TL/W01-001", name="皆を見送る役目", card_type="character", level=1, cost=0, power=3500,
              soul=1, colors=["yellow"], text="【永】他のあなたのキャラすべてに、パワーを＋500。",
              translations={"en": {"name": "Sending Everyone Off", "text": "[C] All your other Characters get +500 Power."},
                            "zh-hans": {"name": "送别众人的职责", "text": "【永】你的其他所有角色战斗力+500。"}})
    url = "/cards/ws/TL/W01-001/"
    en = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Name and text in English: Sending Everyone Off" in en and "All your other Characters" in en
    assert "Text as printed" in en and "パワーを＋500" in en  # the printed text stays one click away
    zh = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode())
    assert "送别众人的职责" in zh and "战斗力+500" in zh and "All your other" not in zh
    ja_page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    ja = visible_text(ja_page)
    assert "パワーを＋500" in ja and "All your other" not in ja and "送别" not in ja
    assert "English" in ja and 'href="?text=en"' in ja_page  # which other languages exist, and how to see them
    assert "名前とテキストは印刷されたまま（日本語）です。" in ja  # and which language the printed card is in
    chosen = visible_text(client.get(url + "?text=en", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "Sending Everyone Off" in chosen and "All your other Characters" in chosen
    # the translated names and texts are searchable too (folded with the printed ones)
    card = Card.objects.get(code="TL/W01-001")
    assert "sendingeveryoneoff" in card.name_folded.split("\n")
    assert set(card_search(q="sending everyone").values_list("code", flat=True)) == {"TL/W01-001"}
    assert set(card_search(q="o:所有角色").values_list("code", flat=True)) == {"TL/W01-001"}


@pytest.mark.django_db
def test_card_page_says_the_printed_language_and_shows_translated_flavor(client):
    from catalog.textnorm import script_language
    from tests.search_testdata import make_card

    assert [script_language(t) for t in ("【永】パワーを＋500", "항상 척척", "Backstage Helper", "騎士王", "")] == \
        ["ja", "ko", "en", "", ""]
    make_card(game="ws", code="TL/W01-002", name="麦わら帽子のかなで", card_type="character", level=1, cost=1,
              power=5000, soul=1, colors=["yellow"], text="【自】アンコール", flavor="あそこに近づくのは校則違反よ")
    make_card(game="ws", code="TL/W01-003", name="Straw Hat Kanade", card_type="character", level=1, cost=1,
              power=5000, soul=1, colors=["yellow"], text="[A] Encore", flavor="That's against the rules.",
              translations={"ja": {"name": "麦わら帽子のかなで", "flavor": "あそこに近づくのは校則違反よ"}})
    # a Japanese card without translations: the English reader is told it is the printed Japanese
    en = visible_text(client.get("/cards/ws/TL/W01-002/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Name and text as printed, in 日本語." in en and "Also available in" not in en
    zh = visible_text(client.get("/cards/ws/TL/W01-002/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode())
    assert "卡名与效果叙述为卡面原文（日本語）。" in zh
    ja_page = client.get("/cards/ws/TL/W01-002/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "印刷されたまま" not in visible_text(ja_page) and "data-text-language" not in ja_page  # nothing to say
    # a translated flavor replaces the printed one for that reader only
    ja = visible_text(client.get("/cards/ws/TL/W01-003/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "日本語 の名前とテキスト: 麦わら帽子のかなで" in ja and "校則違反よ" in ja and "against the rules" not in ja
    en = visible_text(client.get("/cards/ws/TL/W01-003/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "That's against the rules." in en and "校則違反" not in en
    assert "Name and text as printed, in English. Also available in: 日本語" in en


@pytest.mark.django_db
def test_playtest_api_errors_in_each_language(client, settings):
    from tests.search_testdata import load_fixture_cards

    settings.PLAYTEST_EXECUTOR = "inline"
    load_fixture_cards()
    text = (FIXTURES / "decks" / "ws-skylark.txt").read_text()
    out = {}
    for lang in ("en", "ja", "zh-hans"):
        r = client.post("/api/v1/playtests/", {"game": "ws", "text": text, "games": 0}, content_type="application/json",
                        HTTP_ACCEPT_LANGUAGE=lang)
        assert r.status_code == 400, r.content
        out[lang] = {e["code"]: e["message"] for e in r.json()["error"]["details"]}
        r = client.post("/api/v1/playtests/", {"game": "ws", "text": "4 NOPE-404\n", "games": 5},
                        content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)
        out[lang].update({e["code"]: e["message"] for e in r.json()["error"]["details"]})
    assert out["en"].keys() == out["ja"].keys() == out["zh-hans"].keys() >= {"min_value", "unknown_card"}
    assert out["en"]["min_value"] == "games must be at least 1 (got 0)"
    assert out["ja"]["min_value"] == "ゲーム数は 1 以上にしてください(受け取った値: 0)"
    assert out["zh-hans"]["min_value"] == "局数至少为 1(收到 0)"
    assert "NOPE-404" in out["ja"]["unknown_card"] and "不明" in out["ja"]["unknown_card"]


# -- goldfish reports, replays, charts and comparisons (engine output by code) --------------------
GAME_DECKS = {"ws": "ws-skylark", "pc": "pc-starlight-relay", "phantasma": "phantasma-hollow-shrine",
              "chaos": "chaos-sunrise-stage", "lycee": "lycee-sun-flower"}
# Words that stay Latin in every language: printed stats and marks, slot names as printed, symbols.
LATIN_OK = {"ACE", "MHP", "ATK", "DEF", "RANK", "CP", "AP", "DP", "SP", "EX", "DRAW", "LIFE", "AF", "DF", "CX",
            "EXTRA", "connect", "Welch", "Mann", "Whitney", "JSON"}
# Per game, a word each language's replay must show (glossary terms).
REPLAY_TERMS = {
    "ws": {"ja": "クロック", "zh-hans": "时计区"}, "pc": {"ja": "ライフ", "zh-hans": "生命"},
    "phantasma": {"ja": "ダミーの ACE", "zh-hans": "假想对手"}, "chaos": {"ja": "デッキダメージ", "zh-hans": "卡组伤害"},
    "lycee": {"ja": "ダミーが", "zh-hans": "假想对手"},
}


@pytest.fixture
def game_jobs(db, settings, django_capture_on_commit_callbacks):
    """One finished playtest per game (the sample decks), plus a second WS run to compare with."""
    from django.core.management import call_command

    from playtest.services import playtest_create
    from rules.decktext import parse_deck_text

    settings.PLAYTEST_EXECUTOR = "inline"
    call_command("load_sample_data", verbosity=0)
    jobs = {}
    for game, name in GAME_DECKS.items():
        zones = parse_deck_text((FIXTURES / "decks" / f"{name}.txt").read_text()).zones()
        with django_capture_on_commit_callbacks(execute=True):
            jobs[game] = playtest_create(game=game, zones=zones, games=30, seed=11, session_key="s", name=name,
                                         turn_cap=6 if game == "ws" else None)
        jobs[game].refresh_from_db()
        assert jobs[game].status == "done", (game, jobs[game].error)
    zones = parse_deck_text((FIXTURES / "decks" / "ws-nocturne.txt").read_text()).zones()
    with django_capture_on_commit_callbacks(execute=True):
        jobs["ws-b"] = playtest_create(game="ws", zones=zones, games=30, seed=12, session_key="s", name="b")
    jobs["ws-b"].refresh_from_db()
    return jobs


def _latin_left(text: str, job) -> list[str]:
    """Latin words of ``text`` once card names and codes are removed: English that was not translated."""
    for code, card in sorted(job.card_data().items(), key=lambda kv: -len(kv[1].get("name", ""))):
        text = text.replace(card.get("name", "") or code, " ").replace(code, " ")
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in LATIN_OK]


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_goldfish_report_and_replays_translated(client, game_jobs, lang):
    from playtest.i18n import STAT_LABELS
    from rules.engine.core import EVENT_MESSAGES

    english_reasons = set()
    for game in GAME_DECKS:
        job = game_jobs[game]
        page = client.get(f"/p/{job.share_slug}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        reasons = re.findall(r'<span data-reason="([^"]+)">([^<]+) [\d,]+</span>', page)
        reasons = [(html.unescape(r), html.unescape(label)) for r, label in reasons]
        assert reasons and {r for r, _ in reasons} == set(job.summary["reasons"]), (game, reasons)
        for reason, label in reasons:
            english_reasons.add(reason)
            assert label != reason and set(re.findall(r"[A-Za-z]{2,}", label)) <= LATIN_OK, (lang, game, reason, label)
        text = visible_text(page)
        assert not [r for r in english_reasons if r in text], (lang, game)
        shown_stats = [str(label) for key, label in STAT_LABELS.items() if key in job.result["counters"]]
        with __import__("django.utils.translation", fromlist=["override"]).override("en"):
            english_stats = [str(STAT_LABELS[k]) for k in job.result["counters"] if k in STAT_LABELS]
        assert shown_stats and not [s for s in english_stats if len(s.split()) > 1 and s in text], (lang, game)
        assert ("自分のターン" if lang == "ja" else "己方回合") in page and ">own turn<" not in page  # chart axis
        # every example game's replay: each event rendered from its code, no English left
        examples = sorted({int(i) for by_turn in job.summary["examples"].values() for i in by_turn.values()})[:3]
        seen_codes = set()
        for index in examples or [0]:
            replay = client.get(f"/p/{job.share_slug}/games/{index}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
            events = re.findall(r'<li data-code="([^"]*)"><span class="kind">([^<]*)</span> (.*?)</li>', replay, re.S)
            assert events, (game, index)
            for code, kind, message in events:
                assert code in EVENT_MESSAGES, (game, code)
                seen_codes.add(code)
                left = _latin_left(html.unescape(kind + " " + message), job)
                assert not left, f"{lang} {game} {code}: English left {left} in {kind} {message}"
            result = re.search(r'<span data-reason="([^"]+)">([^<]+)</span>', replay)
            if result:
                assert result.group(2) != result.group(1)
                assert set(re.findall(r"[A-Za-z]{2,}", result.group(2))) <= LATIN_OK, result.group(2)
        assert REPLAY_TERMS[game][lang] in html.unescape(replay), (lang, game)
        assert f"{game}.result" in seen_codes or f"{game}.turn" in seen_codes


@pytest.mark.parametrize("lang", ["en", "ja", "zh-hans"])
def test_game_log_api_keeps_codes_and_adds_translations(client, game_jobs, lang):
    job = game_jobs["ws"]
    en = client.get(f"/api/v1/playtests/{job.share_slug}/games/1/log/", HTTP_ACCEPT_LANGUAGE="en").json()
    got = client.get(f"/api/v1/playtests/{job.share_slug}/games/1/log/", HTTP_ACCEPT_LANGUAGE=lang).json()
    assert got["reason"] == en["reason"] and got["outcome"] == en["outcome"]  # machine-readable: unchanged
    for a, b in zip(en["events"], got["events"], strict=True):
        assert (a["code"], a["params"], a["text"], a["kind"]) == (b["code"], b["params"], b["text"], b["kind"])
        if lang == "en":
            assert b["message"] == b["text"]  # English: the engine's own text, exactly
        elif b["code"] != "ws.result":
            rest = b["message"]
            for value in b["params"].values():  # card names stay as printed
                rest = rest.replace(str(value), " ")
            assert b["message"] != b["text"] and not re.search(r"\b(?:the|to|of|draws?)\b", rest), b
    if lang != "en":
        assert got["reason_label"] != got["reason"]


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_compare_page_verdicts_and_reasons_translated(client, game_jobs, lang):
    a, b = game_jobs["ws"], game_jobs["ws-b"]
    text = visible_text(client.get(f"/playtests/compare/?a={a.share_slug}&b={b.share_slug}",
                                   HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert "statistically meaningful" not in text and "meaningfully" not in text and "needs at least" not in text
    assert ("統計的に意味" if lang == "ja" else "统计上") in text or ("意味のある差" if lang == "ja" else "有意义的差异") in text
    # the API keeps the English verdicts and adds the codes
    cmp = client.get(f"/api/v1/playtests/compare/?a={a.share_slug}&b={b.share_slug}", HTTP_ACCEPT_LANGUAGE=lang).json()
    assert cmp["verdict_codes"] and all(v.isascii() for v in cmp["verdicts"])


def test_every_engine_string_has_a_translation():
    """End reasons, event templates and descriptions written in the engines (gettext_noop) and the
    playtest labels exist in both catalogs with their placeholders — checked from the engines' own
    tables, so a new event code or reason without a translation fails here."""
    import importlib

    from django.utils import translation

    from playtest.i18n import KIND_LABELS, STAT_LABELS, TERMS
    from rules.engine.core import EVENT_MESSAGES, get_engine

    engines = {game: get_engine(game) for game in GAME_DECKS}  # registers every event table
    strings, reasons = set(EVENT_MESSAGES.values()), set()
    shared = "".join(p.read_text(encoding="utf-8") for p in sorted((BASE / "rules" / "engine").glob("*.py")))
    for game, engine in engines.items():
        module = importlib.import_module(f"rules.{game}.engine")
        strings |= set(engine.describe_options.values()) | set(engine.describe_extras.values())
        # the game's engine package and the shared engine code (end reasons such as the turn cap)
        source = shared + "".join(p.read_text(encoding="utf-8") for p in sorted(Path(module.__file__).parent.glob("*.py")))
        reasons |= set(re.findall(r'gettext_noop\("([^"]+)"\)', source)) - set(EVENT_MESSAGES.values())
        counters = engine.new_state.COUNTERS
        assert set(counters) <= set(STAT_LABELS), (game, set(counters) - set(STAT_LABELS))
        assert set(engine.ratios) <= set(STAT_LABELS), game
        kinds = set(re.findall(r'self\.say\((?:"\w+", )?"([\w ]+)", "\w+"', source)) | {engine.new_state.RESULT_KIND}
        assert kinds - {"why", "verb"} <= set(KIND_LABELS), (game, kinds - set(KIND_LABELS))
    assert len(strings) > 120 and "turn cap" in reasons
    for lang in ("ja", "zh-hans"):
        with translation.override(lang):
            missing = [s for s in strings | reasons if translation.gettext(s) == s and re.sub(r"\{\w*\}", "", s).strip(": ")]
            assert not missing, f"{lang}: {missing[:5]}"
            for template in EVENT_MESSAGES.values():
                assert sorted(re.findall(r"\{\w*\}", translation.gettext(template))) == \
                    sorted(re.findall(r"\{\w*\}", template)), (lang, template)
            for terms in TERMS.values():
                assert all(str(label) != value or value.isupper() for value, label in terms.items()), (lang, terms)


@pytest.mark.parametrize("lang, want", [
    ("ja", {"/cards/chaos/MA-001/": ["女性", "闇"], "/cards/ws/NOC/S90-001/": ["緑"], "/cards/phantasma/HS-001/": ["白", "敏"],
            "/cards/?q=game:ws": ["並べ替え: レベル(WS)", "緑"]}),
    ("zh-hans", {"/cards/chaos/MA-001/": ["女性"], "/cards/ws/NOC/S90-001/": ["绿"], "/cards/phantasma/HS-001/": ["白"],
                 "/cards/?q=game:ws": ["等级(WS)"]}),
])
def test_card_pages_show_enumerations_in_the_language(client, site, lang, want):
    """Colors, attributes, genders, triggers, cost symbols and the sort menu: labels, not stored values."""
    for url, words in want.items():
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        text = visible_text(re.sub(r'placeholder="[^"]*"', "", page))
        assert all(w in text for w in words), (lang, url, [w for w in words if w not in text])
        for english in ("female", "green", "agility", "white", "Level (WS)", "trigger comeback"):
            assert not re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", text), (lang, url, english)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_playtest_form_tells_the_game_from_the_number_of_games(client, lang):
    """"Game" (which game) and "Games" (how many goldfish games) are two words in Japanese and
    Chinese; the form showed ゲーム / 游戏 for both."""
    page = client.get("/playtests/new/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    labels = dict(re.findall(r'<label for="id_(games?)"[^>]*>([^<]*)</label>', page))
    assert set(labels) == {"game", "games"}, labels
    assert labels["game"].strip() != labels["games"].strip(), labels
