"""Study and suite TOML files: the shipped ones load, bad ones fail with a clear message."""

import pathlib
import re

import pytest

from analyser.errors import RikkenError
from analyser.studies.config import ConfigError, load_study, load_suite, study_from_dict

SIMS = pathlib.Path(__file__).resolve().parents[1] / "sims"


def write(tmp_path, text, name="s.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _set_hands(text: str, line: str) -> str:
    """Replace the malheur study's ``hands = N`` line (whatever N the shipped file has)."""
    out, n = re.subn(r"(?m)^hands = \d+$", line, text)
    assert n == 1
    return out


def base_text():
    return (SIMS / "malheur.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("suite", ["default.toml", "full.toml"])
def test_shipped_suites_load(suite):
    s = load_suite(SIMS / suite)
    kinds = {"rik_minimum", "alone", "misere", "piek", "malheur", "wiezen_ask", "auction"}
    kinds |= {"deal_model", "whist"}
    kinds |= {"piket"}
    kinds |= {"klaverjas"}
    if suite == "default.toml":
        # the small real-play run confirms the shipped calibration; the calibration run
        # itself (sims/full/real_play.toml, hours) is run on its own, not in the full suite
        kinds |= {"real_play"}
    assert {c.kind for c in s.studies} == kinds
    assert s.report_dir.is_relative_to((SIMS.parent / "reports").resolve())
    for cfg in s.studies:
        assert cfg.data_dir == (SIMS.parent / "data").resolve()
        assert len(cfg.key) == 12


def test_key_depends_on_parameters_version_and_code(tmp_path):
    cfg = load_study(SIMS / "malheur.toml")
    assert cfg.with_params(seed=1).key != cfg.key
    assert cfg.with_params(seed=cfg["seed"]).key == cfg.key
    other = type(cfg)(cfg.path, cfg.params, cfg.data_dir, cfg.report_dir, version="9.9")
    assert other.key != cfg.key
    assert len(cfg.code) == 64  # a SHA-256 of the study's code (test_studies_codehash.py)
    other = type(cfg)(cfg.path, cfg.params, cfg.data_dir, cfg.report_dir, code="0" * 64)
    assert other.key != cfg.key


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda t: t + "\nbogus = 1\n", "unknown key 'bogus'"),
        (lambda t: _set_hands(t, ""), "missing key 'hands'"),
        (lambda t: _set_hands(t, 'hands = "many"'), "key 'hands' must be an integer"),
        (lambda t: _set_hands(t, "hands = 0"), "key 'hands' must be in 1.."),
        (lambda t: t.replace('rules = "book"', 'rules = "bridge"'), "key 'rules'"),
        (
            lambda t: t.replace('rules = "book"', 'rules = "wiezen"'),
            "a malheur study needs a rule set of the rikken family",
        ),
        (lambda t: t.replace('kind = "malheur"', 'kind = "poker"'), "key 'kind' must be one of"),
        (lambda t: t.replace("seed = ", "seed = -"), "key 'seed'"),
        (lambda t: t + "\ndata_dir = 3\n", "key 'data_dir'"),
        (lambda t: _set_hands(t, "hands = [1"), "not valid TOML"),
    ],
)
def test_bad_study_files(tmp_path, edit, message):
    path = write(tmp_path, edit(base_text()))
    with pytest.raises(ConfigError, match=message) as exc:
        load_study(path)
    assert str(path) in str(exc.value)
    assert isinstance(exc.value, RikkenError)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_study(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="is a directory"):
        load_study(tmp_path)


def test_cross_checks_and_list_values(tmp_path):
    text = (SIMS / "rik_minimum.toml").read_text()
    with pytest.raises(ConfigError, match="'high_min' must not exceed 'high_max'"):
        load_study(
            write(
                tmp_path,
                text.replace("high_min = 0", "high_min = 5").replace(
                    "high_max = 5", "high_max = 3"
                ),
            )
        )
    with pytest.raises(ConfigError, match="trump_lengths"):
        load_study(
            write(
                tmp_path, text.replace("trump_lengths = [5, 6, 7, 8, 9]", "trump_lengths = [4, 6]")
            )
        )
    with pytest.raises(ConfigError, match="two_suiter_lengths"):
        load_study(
            write(
                tmp_path,
                text.replace("two_suiter_lengths = [[7, 5]]", "two_suiter_lengths = [[8, 7]]"),
            )
        )
    misere = (SIMS / "misere.toml").read_text()
    with pytest.raises(ConfigError, match="leaders"):
        load_study(write(tmp_path, misere.replace('leaders = ["N", "E"]', 'leaders = ["X"]')))


def test_suite_errors(tmp_path):
    (tmp_path / "m.toml").write_text(base_text())
    with pytest.raises(ConfigError, match="key 'studies'"):
        load_suite(write(tmp_path, 'title = "x"\n', "suite.toml"))
    with pytest.raises(ConfigError, match="unknown key 'extra'"):
        load_suite(write(tmp_path, 'studies = ["m.toml"]\nextra = 1\n', "suite.toml"))
    with pytest.raises(ConfigError, match="no such file"):
        load_suite(write(tmp_path, 'studies = ["gone.toml"]\n', "suite.toml"))
    with pytest.raises(ConfigError, match="share the name"):
        load_suite(write(tmp_path, 'studies = ["m.toml", "m.toml"]\n', "suite.toml"))
    with pytest.raises(ConfigError, match="is a suite"):
        load_study(write(tmp_path, 'studies = ["m.toml"]\n', "suite.toml"))


def test_study_from_dict_resolves_paths_relative_to_the_file(tmp_path):
    raw = {**load_study(SIMS / "malheur.toml").params, "data_dir": "out/d"}
    cfg = study_from_dict(raw, tmp_path / "sub" / "x.toml")
    assert cfg.data_dir == (tmp_path / "sub" / "out" / "d").resolve()
    assert cfg.report_dir == (tmp_path / "reports").resolve()


def test_a_study_file_extends_another(tmp_path):
    base = tmp_path / "base.toml"
    base.write_text(MALHEUR_TEXT_FOR_EXTENDS.format(data="data"))
    sub = tmp_path / "big" / "big.toml"
    sub.parent.mkdir()
    sub.write_text('extends = "../base.toml"\nname = "big"\nhands = 50\n')
    cfg = load_study(sub)
    assert cfg["hands"] == 50 and cfg["name"] == "big" and cfg["seed"] == 7
    assert cfg.data_dir == (tmp_path / "data").resolve()  # relative to the file that sets it
    loop = tmp_path / "loop.toml"
    loop.write_text('extends = "loop.toml"\nhands = 3\n')
    with pytest.raises(ConfigError, match="circle"):
        load_study(loop)
    with pytest.raises(ConfigError, match="no such file"):
        load_study(_write_extends(tmp_path, "missing.toml"))


def _write_extends(tmp_path, target: str):
    p = tmp_path / "x.toml"
    p.write_text(f'extends = "{target}"\n')
    return p


MALHEUR_TEXT_FOR_EXTENDS = """kind = "malheur"
name = "base"
title = "t"
seed = 7
rules = "book"
deals_per_hand = 2
chunk_hands = 4
hands = 8
data_dir = "{data}"
"""


def test_the_large_versions_only_change_sizes():
    # sims/full/*.toml extend the default files (or, for a second run of a large study, that
    # study's large file, itself extending its default) and set no key the file they extend
    # has at that value
    import tomllib

    full = SIMS / "full"
    for p in full.glob("*.toml"):
        raw = tomllib.loads(p.read_text())
        parent = raw["extends"]
        if parent != f"../{p.name}":
            assert (full / parent).is_file(), p.name
            grand = tomllib.loads((full / parent).read_text())["extends"]
            assert grand == f"../{parent}", p.name
        base = tomllib.loads((full / parent).resolve().read_text())
        same = [k for k, v in raw.items() if k in base and base[k] == v]
        assert same == [], (p.name, same)
    assert load_study(SIMS / "smoke.toml")["hands"] == 8


def test_the_registry_finds_every_study_module():
    from analyser.studies.registry import PROTOCOL, study_family, study_kinds, study_module

    kinds = set(study_kinds())
    assert {"rik_minimum", "alone", "misere", "piek", "malheur", "auction"} <= kinds
    assert {"wiezen_ask", "deal_model"} <= kinds
    assert not kinds & {"config", "runner", "cache", "common", "registry", "cluster"}
    for kind in kinds:
        module = study_module(kind)
        assert all(callable(getattr(module, f)) for f in PROTOCOL) and module.INTRO
    assert study_family("wiezen_ask") == "wiezen" and study_family("misere") == "rikken"
