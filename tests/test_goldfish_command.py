"""``manage.py goldfish`` on the sample decks, its JSON, its event log and its error messages."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.models import Card
from rules.coverage import game_deck_coverage
from rules.engine.core import _REGISTRY, get_engine

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ENGINE_GAMES = ("ws", "pc", "phantasma", "chaos", "lycee")


def load_catalog(game: str) -> int:
    data = json.loads((FIXTURES / "cards" / f"{game}.json").read_text(encoding="utf-8"))
    Card.objects.bulk_create([Card(game=game, **card) for card in data["cards"]])
    return len(data["cards"])


def run(*args: str) -> str:
    out = StringIO()
    call_command("goldfish", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def sample_decks(game: str) -> list[Path]:
    return sorted((FIXTURES / "decks").glob(f"{game}-*.txt"))


@pytest.mark.django_db
@pytest.mark.parametrize("game", ENGINE_GAMES)
def test_every_sample_deck_runs_with_json(game):
    load_catalog(game)
    decks = sample_decks(game)
    assert decks, f"no sample decks for {game}"
    for path in decks:
        report = json.loads(run("--game", game, "--deck", str(path), "--games", "200", "--seed", "7", "--json"))
        assert report["games"] == 200
        assert report["wins"] + report["losses"] + report["draws"] + report["capped"] == 200
        assert report["wins"] > 0, f"{path.name} never won a goldfish game"
        tw = report["turn_of_win"]
        assert tw["p10"] <= tw["median"] <= tw["p90"]
        assert tw["ci95"][0] <= tw["mean"] <= tw["ci95"][1]
        assert sum(int(v) for v in report["win_histogram"].values()) == report["wins"]
        cum = list(report["cumulative_win_probability"].values())
        assert cum == sorted(cum) and abs(cum[-1] - report["win_rate"]) < 1e-9
        assert report["extras"]["ratios"], "per-game extras are reported"
        # the coverage block is exactly rules.coverage's for the deck's cards (catalog records)
        counts: dict[str, int] = {}
        for line in path.read_text().splitlines():
            if line.strip() and line.strip()[0].isdigit():
                counts[line.split()[1]] = counts.get(line.split()[1], 0) + int(line.split()[0])
        records = {c.code: c.to_record() for c in Card.objects.filter(game=game, code__in=counts)}
        expected = game_deck_coverage(game, [records[code] for code, n in counts.items() for _ in range(n)])
        assert report["coverage"] == json.loads(json.dumps(expected))
        cov = report["coverage"]
        assert cov["cards_modelled"] + len(cov["not_modelled"]) == cov["cards"] == len(counts)
        assert report["first_playable"], "first-playable turns are reported"


@pytest.mark.django_db
def test_ws_extras_and_text_report():
    load_catalog("ws")
    path = sample_decks("ws")[0]
    report = json.loads(run("--game", "ws", "--deck", str(path), "--games", "300", "--json"))
    ratios = report["extras"]["ratios"]
    for name in ("damage_per_attack", "cancel_rate", "refreshes_per_game"):
        assert name in ratios
    assert 0 < ratios["cancel_rate"]["value"] < 1
    assert "damage" in report["extras"]["per_turn"]
    text = run("--game", "ws", "--deck", str(path), "--games", "100")
    assert "turn of win" in text and "cancel_rate" in text and "unmodelled effects" not in text
    # the coverage line comes right after the turn-of-win figures, before the histogram
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("modelled: "))
    assert lines[at - 1].startswith("turn of win:") and "cards fully modelled" in lines[at]
    cov = report["coverage"]
    assert f"{cov['cards_modelled']} of {cov['cards']} cards fully modelled ({cov['copies_share']:.1%} of copies)" in text


@pytest.mark.django_db
def test_pc_extras():
    load_catalog("pc")
    path = sample_decks("pc")[0]
    report = json.loads(run("--game", "pc", "--deck", str(path), "--games", "300", "--json"))
    assert "life_taken" in report["extras"]["per_turn"]
    assert "bonus_marks_per_revealed_card" in report["extras"]["ratios"]
    assert report["extras"]["counters"]["connect_attacks"]["total"] > 0


@pytest.mark.django_db
def test_log_prints_one_readable_game():
    load_catalog("ws")
    path = sample_decks("ws")[0]
    text = run("--game", "ws", "--deck", str(path), "--seed", "3", "--log", "5")
    assert "opening hand" in text and "attack" in text and "trigger" in text
    assert text == run("--game", "ws", "--deck", str(path), "--seed", "3", "--log", "5")
    data = json.loads(run("--game", "ws", "--deck", str(path), "--seed", "3", "--log", "5", "--json"))
    assert data["index"] == 5 and data["events"][0]["kind"] == "setup"


@pytest.mark.django_db
def test_same_seed_same_numbers_and_options_apply():
    load_catalog("ws")
    path = str(sample_decks("ws")[0])
    a = json.loads(run("--game", "ws", "--deck", path, "--games", "50", "--seed", "9", "--json"))
    b = json.loads(run("--game", "ws", "--deck", path, "--games", "50", "--seed", "9", "--json"))
    assert a == b
    c = json.loads(run("--game", "ws", "--deck", path, "--games", "50", "--seed", "9", "--json",
                       "--option", "dummy_climaxes=0", "--first", "me", "--turn-cap", "30"))
    assert c["options"]["dummy_climaxes"] == 0 and c["options"]["first"] == "me" and c["options"]["turn_cap"] == 30
    assert c["extras"]["ratios"]["cancel_rate"]["value"] == 0


@pytest.mark.django_db
def test_errors_are_clear(tmp_path):
    load_catalog("ws")
    missing = tmp_path / "nope.txt"
    with pytest.raises(CommandError, match="deck file not found"):
        run("--game", "ws", "--deck", str(missing))
    bad = tmp_path / "bad.txt"
    bad.write_text("4 SKY/W90-001\nfour cards please\n")
    with pytest.raises(CommandError, match="line 2"):
        run("--game", "ws", "--deck", str(bad))
    unknown = tmp_path / "unknown.txt"
    unknown.write_text("4 SKY/W90-001\n4 NOPE/W00-999\n")
    with pytest.raises(CommandError, match=r"(?s)unknown ws card code.*line 2: NOPE/W00-999"):
        run("--game", "ws", "--deck", str(unknown))
    zone = tmp_path / "zone.txt"
    zone.write_text("# extra\n4 SKY/W90-001\n")
    with pytest.raises(CommandError, match="no such section"):
        run("--game", "ws", "--deck", str(zone))
    empty = tmp_path / "empty.txt"
    empty.write_text("// nothing\n")
    with pytest.raises(CommandError, match="lists no cards"):
        run("--game", "ws", "--deck", str(empty))
    small = tmp_path / "small.txt"
    small.write_text("4 SKY/W90-001\n")
    with pytest.raises(CommandError, match="too few"):
        run("--game", "ws", "--deck", str(small))
    good = str(sample_decks("ws")[0])
    with pytest.raises(CommandError, match="first"):
        run("--game", "ws", "--deck", good, "--games", "3", "--first", "sometimes")
    with pytest.raises(CommandError, match="KEY=VALUE"):
        run("--game", "ws", "--deck", good, "--option", "oops")
    with pytest.raises(CommandError, match="unknown pilot"):
        run("--game", "ws", "--deck", good, "--pilot", "genius")
    with pytest.raises(CommandError, match="--games"):
        run("--game", "ws", "--deck", good, "--games", "0")


@pytest.mark.django_db
def test_catalog_options_are_applied(tmp_path, monkeypatch):
    """An engine with ``catalog_options`` gets them computed from the whole catalog of its game."""
    load_catalog("ws")
    seen: dict = {}

    def catalog_options(records):
        records = list(records)
        seen["n"] = len(records)
        return {"dummy_climaxes": 3}

    engine = get_engine("ws")
    from dataclasses import replace

    monkeypatch.setitem(_REGISTRY, "ws", replace(engine, catalog_options=catalog_options))
    report = json.loads(run("--game", "ws", "--deck", str(sample_decks("ws")[0]), "--games", "5", "--json"))
    assert seen["n"] == Card.objects.filter(game="ws").count()
    assert report["options"]["dummy_climaxes"] == 3
    report = json.loads(run("--game", "ws", "--deck", str(sample_decks("ws")[0]), "--games", "5", "--json",
                            "--option", "dummy_climaxes=5"))
    assert report["options"]["dummy_climaxes"] == 5


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["pc", "phantasma", "ws", "chaos", "lycee"])
def test_the_command_is_generic_over_every_registered_engine(game):
    get_engine(game)  # every game has an engine: a missing one is a failure, not a skip
    load_catalog(game)
    for path in sample_decks(game):
        report = json.loads(run("--game", game, "--deck", str(path), "--games", "20", "--seed", "1", "--json"))
        assert report["games"] == 20 and report["game"] == game
        assert report["wins"] + report["losses"] + report["draws"] + report["capped"] == 20
        assert "coverage" in report and "unmodelled" not in report and "extras" in report
        assert report["coverage"]["copies"] >= report["coverage"]["cards"] > 0


@pytest.mark.django_db
def test_exchange_formats_are_detected(tmp_path):
    """A deck written as CODE RARITY lines (one line per copy) plays the same games as deck text."""
    load_catalog("ws")
    path = sample_decks("ws")[0]
    lines = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts and parts[0].isdigit():
            lines += [f"{parts[1]} C"] * int(parts[0])
    cr = tmp_path / "deck-cr.txt"
    cr.write_text("\n".join(lines) + "\n")
    a = json.loads(run("--game", "ws", "--deck", str(path), "--games", "30", "--json"))
    b = json.loads(run("--game", "ws", "--deck", str(cr), "--games", "30", "--json"))
    assert a["turn_of_win"] == b["turn_of_win"] and a["extras"] == b["extras"]
    bad = tmp_path / "bad-cr.txt"
    bad.write_text("SKY/W90-001 C\nNOPE/W00-001 C\n")
    with pytest.raises(CommandError, match="NOPE/W00-001"):
        run("--game", "ws", "--deck", str(bad), "--games", "3")


@pytest.mark.carddata
@pytest.mark.django_db
def test_real_player_deck_from_the_public_data():
    """A real 50-card deck in CODE RARITY lines, with the real (messy) Da Capo card data imported by
    the project's importer: the goldfish plays it, lists its unmodelled texts, and reports."""
    from django.conf import settings

    ws_dir = Path(settings.SHARED_DIR) / "carddata" / "weiss_schwarz"
    files = [str(ws_dir / "rcyberw_hotc_en_jp" / f"{name}.txt")
             for name in ("DC-W01", "DC-W09", "DC-WE02", "DC-WE08", "DC3-W18")]
    call_command("import_cards", "--game", "ws", "--allow-skips", *files, stdout=StringIO(), stderr=StringIO())
    deck = ws_dir / "decks" / "rcyberw" / "Sara.txt"
    report = json.loads(run("--game", "ws", "--deck", str(deck), "--games", "200", "--json"))
    assert report["games"] == 200 and report["wins"] > 150
    cov = report["coverage"]  # real cards carry real text: the report says how much of it is modelled
    assert cov["copies"] == 50 and cov["cards_modelled"] + len(cov["not_modelled"]) == cov["cards"]
    assert all(c["never_played"] or any(a["status"] in ("not_understood", "not_played") for a in c["abilities"])
               for c in cov["not_modelled"])
    assert 0 < report["extras"]["ratios"]["cancel_rate"]["value"] < 1


def test_describe_lists_options_and_pilots():
    text = run("--game", "ws", "--describe")
    assert "dummy_climaxes (default 8)" in text and "first (default random)" in text and "greedy" in text
    assert "turn_cap (default 40)" in text
    with pytest.raises(CommandError, match="--deck"):
        run("--game", "pc")
