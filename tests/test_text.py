"""Words every layer shares (engine/core/text.py)."""

from engine.core.text import and_list, plural, seq_text


def test_names_in_a_sentence():
    assert and_list([]) == ""
    assert and_list(["blue"]) == "blue"
    assert and_list(["blue", "red"]) == "blue and red"
    # three rulesets in the dashboard's title, three winners of a shared game
    assert and_list(["Risk Europe", "Risk Legacy", "Warrior Knights"]) == "Risk Europe, Risk Legacy and Warrior Knights"
    assert and_list(iter(("a", "b", "c", "d"))) == "a, b, c and d"


def test_counts_and_seqs():
    assert (plural(1, "crown"), plural(1024, "game"), plural(2, "army", "armies")) == ("1 crown", "1,024 games", "2 armies")
    assert seq_text(5) == "5" and seq_text(10 ** 30).endswith("(31 digits)")
