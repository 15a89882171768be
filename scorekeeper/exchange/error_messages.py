"""The words for each refusal of the rules and the exchange formats, by the error's code
(translated, context "import error"); ``error_text`` says them with the field they name."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

MESSAGES: dict[str, Promise] = {
    "attack_bouts": pgettext_lazy(
        "import error",
        "%(points)s points cannot hold %(bouts)s bouts (bouts are worth %(needs)s)",
    ),
    "bouts_not_whole": pgettext_lazy(
        "import error",
        "%(value)s is not a whole number of bouts",
    ),
    "bouts_range": pgettext_lazy(
        "import error",
        "%(value)s is not between 0 and 3",
    ),
    "cannot_be_player": pgettext_lazy(
        "import error",
        "%(value)s cannot be a player",
    ),
    "licence_chars": pgettext_lazy(
        "import error",
        "%(value)s: only letters and digits",
    ),
    "control_character": pgettext_lazy(
        "import error",
        "%(value)s holds an invisible or control character (U+%(point)s)",
    ),
    "csv_broken": pgettext_lazy(
        "import error",
        "the file is not a table of cells (line %(line)s)",
    ),
    "csv_empty": pgettext_lazy(
        "import error",
        "the file holds no rows",
    ),
    "csv_header": pgettext_lazy(
        "import error",
        "the first row must name the columns (%(columns)s) then the players",
    ),
    "date_range": pgettext_lazy(
        "import error",
        "%(value)s is not between the years %(first)s and %(last)s",
    ),
    "defence_bouts": pgettext_lazy(
        "import error",
        "with %(points)s points to the attack, the defence's %(defence)s cannot hold the "
        "other %(bouts)s bouts (worth %(needs)s)",
    ),
    "duplicate": pgettext_lazy(
        "import error",
        "this game is already here: the evening of %(date)s",
    ),
    "empty": pgettext_lazy(
        "import error",
        "cannot be empty",
    ),
    "escopette_players": pgettext_lazy(
        "import error",
        "l'escopette needs exactly 4 players, not %(count)s",
    ),
    "game_ended": pgettext_lazy(
        "import error",
        "the game ended after deal %(number)s (%(winner)s won)",
    ),
    "json_constant": pgettext_lazy(
        "import error",
        "not valid JSON: %(value)s is not a number",
    ),
    "too_many_invitations": pgettext_lazy(
        "import error",
        "%(count)s members and invitations: one archive invites at most %(limit)s",
    ),
    "json_number": pgettext_lazy(
        "import error",
        "not valid JSON: a number has more than %(digits)s digits",
    ),
    "utf8_broken": pgettext_lazy(
        "import error",
        "not valid UTF-8 text: a broken character on line %(line)s",
    ),
    "json_deep": pgettext_lazy(
        "import error",
        "not valid JSON: nested too deeply",
    ),
    "json_key_twice": pgettext_lazy(
        "import error",
        "not valid JSON: the key %(key)s appears twice",
    ),
    "listed_twice": pgettext_lazy(
        "import error",
        "%(name)s is listed twice",
    ),
    "missing": pgettext_lazy(
        "import error",
        "missing",
    ),
    "not_a_number": pgettext_lazy(
        "import error",
        "%(value)s is not a number",
    ),
    "not_a_player": pgettext_lazy(
        "import error",
        "%(name)s is not one of the players",
    ),
    "not_archive": pgettext_lazy(
        "import error",
        "this is not a club archive of this app",
    ),
    "not_chelem": pgettext_lazy(
        "import error",
        "%(value)s is not a chelem (%(options)s)",
    ),
    "not_contract": pgettext_lazy(
        "import error",
        "%(value)s is not a contract (%(options)s)",
    ),
    "not_date": pgettext_lazy(
        "import error",
        "%(value)s is not a date (YYYY-MM-DD)",
    ),
    "not_deal_list": pgettext_lazy(
        "import error",
        "%(value)s is not a list of deals",
    ),
    "not_change": pgettext_lazy(
        "import error",
        "%(value)s is not a change of a deal",
    ),
    "not_email": pgettext_lazy(
        "import error",
        "%(value)s is not an e-mail address",
    ),
    "not_evening_list": pgettext_lazy(
        "import error",
        "not a list of evenings",
    ),
    "not_five_mode": pgettext_lazy(
        "import error",
        "%(value)s is not a way to play with five (%(options)s)",
    ),
    "not_game": pgettext_lazy(
        "import error",
        "%(value)s is not a game (%(options)s)",
    ),
    "not_half_point": pgettext_lazy(
        "import error",
        "%(value)s is not a whole or half point",
    ),
    "not_json": pgettext_lazy(
        "import error",
        "not valid JSON: line %(line)s, column %(column)s",
    ),
    "not_list": pgettext_lazy(
        "import error",
        "%(value)s is not a list",
    ),
    "not_name": pgettext_lazy(
        "import error",
        "%(value)s is not a player's name",
    ),
    "not_names": pgettext_lazy(
        "import error",
        "%(value)s is not a list of names",
    ),
    "not_object": pgettext_lazy(
        "import error",
        "%(value)s is not a JSON object",
    ),
    "not_paper": pgettext_lazy(
        "import error",
        "%(value)s is not a paper deal",
    ),
    "not_player_list": pgettext_lazy(
        "import error",
        "%(value)s is not a list of players",
    ),
    "not_poignee": pgettext_lazy(
        "import error",
        "%(value)s is not a poignée (%(options)s)",
    ),
    "not_poignee_list": pgettext_lazy(
        "import error",
        "%(value)s is not a list of poignées",
    ),
    "not_scale": pgettext_lazy(
        "import error",
        "%(value)s is not a list of points by place",
    ),
    "not_scores": pgettext_lazy(
        "import error",
        "%(value)s is not an object of player: score",
    ),
    "not_seated": pgettext_lazy(
        "import error",
        "%(name)s is not seated",
    ),
    "not_side": pgettext_lazy(
        "import error",
        "%(value)s is not a side (%(options)s)",
    ),
    "not_stake_trump": pgettext_lazy(
        "import error",
        "%(value)s is not a stake trump (%(options)s)",
    ),
    "not_stakes": pgettext_lazy(
        "import error",
        "%(value)s is not an object of trump: player",
    ),
    "not_target": pgettext_lazy(
        "import error",
        "%(value)s is not a target (50 or 100)",
    ),
    "not_tarot_deal": pgettext_lazy(
        "import error",
        "%(value)s is not a tarot deal",
    ),
    "not_text": pgettext_lazy(
        "import error",
        "%(value)s is not a string",
    ),
    "not_utf8": pgettext_lazy(
        "import error",
        "not valid UTF-8 text",
    ),
    "not_whole": pgettext_lazy(
        "import error",
        "%(value)s is not a whole number",
    ),
    "paper_missing": pgettext_lazy(
        "import error",
        "no score for %(name)s",
    ),
    "paper_not_seated": pgettext_lazy(
        "import error",
        "%(name)s has a score but did not play",
    ),
    "paper_sum": pgettext_lazy(
        "import error",
        "the scores add up to %(total)s, not 0",
    ),
    "partner_missing": pgettext_lazy(
        "import error",
        "with 5 players seated, name the called partner (or the taker, if alone)",
    ),
    "partner_not_five": pgettext_lazy(
        "import error",
        "no partner is called with %(count)s players seated, only with 5",
    ),
    "passed_true": pgettext_lazy(
        "import error",
        "must be true (leave it out for a deal that was played)",
    ),
    "petit_attack_no_bout": pgettext_lazy(
        "import error",
        "the attack took the petit au bout, so it holds at least 1 bout",
    ),
    "petit_defence_three_bouts": pgettext_lazy(
        "import error",
        "the defence took the petit au bout, so the attack cannot hold 3 bouts",
    ),
    "points_over": pgettext_lazy(
        "import error",
        "%(points)s is more than 91",
    ),
    "points_under": pgettext_lazy(
        "import error",
        "%(points)s is less than 0",
    ),
    "same_player": pgettext_lazy(
        "import error",
        "%(first)s and %(second)s are the same player",
    ),
    "scale_length": pgettext_lazy(
        "import error",
        "give the points of 1 to %(limit)s places",
    ),
    "scale_rising": pgettext_lazy(
        "import error",
        "a place cannot give more points than the one before",
    ),
    "scale_whole": pgettext_lazy(
        "import error",
        "each place's points are a whole number, 0 or more",
    ),
    "season_dates": pgettext_lazy(
        "import error",
        "the last day cannot come before the first day",
    ),
    "seated_count": pgettext_lazy(
        "import error",
        "%(count)s players seated: a deal needs 3 to 5",
    ),
    "sheet_not_object": pgettext_lazy(
        "import error",
        "a deal sheet is a JSON object",
    ),
    "sitting_out": pgettext_lazy(
        "import error",
        "%(name)s is sitting out this deal",
    ),
    "stake_not_player": pgettext_lazy(
        "import error",
        "trump %(trump)s went to %(name)s, who is not one of the players",
    ),
    "stake_not_playing": pgettext_lazy(
        "import error",
        "trump %(trump)s went to %(name)s, who is not playing",
    ),
    "stakes_missing": pgettext_lazy(
        "import error",
        "no winner for trump %(trumps)s: give all nine",
    ),
    "target_tarot": pgettext_lazy(
        "import error",
        "only l'escopette has a target",
    ),
    "tarot_players": pgettext_lazy(
        "import error",
        "%(count)s players: a tarot sheet needs 3 to 6",
    ),
    "too_few_seated": pgettext_lazy(
        "import error",
        "only %(count)s players left seated: a deal needs 3 to 5",
    ),
    "too_large": pgettext_lazy(
        "import error",
        "%(value)s is far too large",
    ),
    "too_long": pgettext_lazy(
        "import error",
        "%(value)s is longer than %(limit)s characters",
    ),
    "too_many_deals": pgettext_lazy(
        "import error",
        "%(count)s deals: one import takes at most %(limit)s",
    ),
    "too_many_poignees": pgettext_lazy(
        "import error",
        "%(count)s poignées with %(seated)s players seated: at most one each",
    ),
    "too_many_seated": pgettext_lazy(
        "import error",
        "%(count)s players seated: at most 5 play a deal, say who sits out",
    ),
    "twice": pgettext_lazy(
        "import error",
        "%(name)s appears twice",
    ),
    "two_owners": pgettext_lazy(
        "import error",
        "a club has one owner",
    ),
    "unknown_key": pgettext_lazy(
        "import error",
        "not a key of %(where)s (expected %(keys)s)",
    ),
    "version": pgettext_lazy(
        "import error",
        "%(value)s is not a version this app reads (1 to %(latest)s)",
    ),
    "rule_choice": pgettext_lazy(
        "import error",
        "%(value)s is not a choice for %(rule)s (%(options)s)",
    ),
    "misere_off": pgettext_lazy(
        "import error",
        "these rules score no misère (the rules' misere is 0, not 10 or 20)",
    ),
    "rules_escopette": pgettext_lazy(
        "import error",
        "l'escopette is scored by its stakes: it has no rules",
    ),
    "rules_differ": pgettext_lazy(
        "import error",
        "%(value)s: every deal of a game is scored by the same rules",
    ),
    # Duplicate tournaments (scoring.duplicate, and their archives).
    "bad_method": pgettext_lazy("import error", "%(value)s is not a method"),
    "bad_movement": pgettext_lazy("import error", "not a movement"),
    "no_movement": pgettext_lazy("import error", "no movement found"),
    "not_case": pgettext_lazy("import error", "%(value)s is not a deal and its case"),
    "not_kind": pgettext_lazy("import error", "%(value)s is not a kind of tournament"),
    "out_of_range": pgettext_lazy("import error", "%(value)s is not between %(low)s and %(high)s"),
}
