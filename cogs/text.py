"""Words the bot says: names of things, the rules explained, Chinese localisations.

Kept apart from the cogs so every message a player reads is in one place, and so
the length limits Discord enforces (2000-character messages, 4096-character embed
descriptions, 100-character option descriptions) are easy to check in tests.
"""

from __future__ import annotations

from bot.i18n import guide
from bot.rules import SUIT_NAMES, SUIT_SYMBOLS, Bid, Card, RuleSet, Trump, pretty_cards

TEAM_NAMES = ("Team A (seats 0 & 2)", "Team B (seats 1 & 3)")


def level_name(level: str) -> str:
    return "10" if level == "T" else level


def trump_text(trump: Trump | None) -> str:
    if trump is None:
        return "not set yet"
    if trump.suit is None:
        return f"no trump (无主) · level {level_name(trump.level)}"
    return f"{SUIT_SYMBOLS[trump.suit]} {SUIT_NAMES[trump.suit]} · level {level_name(trump.level)}"


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    return pretty_cards(cards) or "—"


def bid_text(bid: Bid, name: str) -> str:
    target = "no trump" if bid.suit is None else f"{SUIT_SYMBOLS[bid.suit]} {SUIT_NAMES[bid.suit]}"
    return f"{name} shows {cards_text(bid.cards)} for {target}"


def bid_label(bid: Bid, current: Bid | None, seat: int) -> str:
    """A button label for a bid: what it does, in the words players use."""
    shown = cards_text(bid.cards)
    if bid.suit is None:
        return f"No trump {shown}"
    if current is None:
        return f"Declare {shown}"
    if current.seat == seat and current.suit == bid.suit:
        return f"Reinforce {shown}"
    return f"Overcall {shown}"


def result_text(winner: str, gained: int) -> str:
    if winner == "dealer":
        big = {3: " (大光)", 2: " (小光)"}.get(gained, "")
        return f"The dealer's team goes up {gained}{big}"
    if gained == 0:
        return "The attackers take the deal (上台)"
    return f"The attackers take the deal and go up {gained}"


#: the topics of /shengji rules, in reading order (their text is in bot.i18n.guide)
RULE_TOPICS: tuple[str, ...] = tuple(guide.TOPICS)


def rules_text(topic: str, rules: RuleSet, locale: str = "en-US") -> str:
    """A rules topic for a player, in ``locale``, with the numbers of ``rules``."""
    return guide.topic_text(locale, topic, rules)


# Chinese (zh-CN) names and descriptions for the slash commands. Names must be
# lower case letters/digits (Han characters count as letters) of at most 32.
ZH: dict[str, str] = {
    "shengji": "双升",
    "Play 双升 (Shengji / Tractor) at this table": "在本频道玩双升（拖拉机）",
    "new": "开桌",
    "Open a table in this channel": "在本频道开一桌",
    "join": "入座",
    "Take a seat at this channel's table": "在本桌入座",
    "leave": "离开",
    "Leave your seat (a computer player takes over mid-match)": "离座（对局中由电脑接替）",
    "addbot": "加电脑",
    "Fill an empty seat with a computer player": "让电脑玩家补空位",
    "kick": "踢出",
    "Remove a player before the start (host or admin)": "开局前移除玩家（桌主或管理员）",
    "start": "开始",
    "Start the match once four seats are filled": "四人坐满后开始",
    "abort": "解散",
    "End this table (host/admin, or a vote of the players)": "解散本桌（桌主/管理员或玩家投票）",
    "hand": "手牌",
    "Open your private hand panel": "打开你的手牌面板",
    "play": "出牌",
    "Play cards by notation, e.g. AH AH KH": "用记法出牌，如 AH AH KH",
    "hint": "提示",
    "Suggest a play for your turn": "为你这一手给出建议",
    "auto": "托管",
    "Let the computer play for you (toggle)": "让电脑代你出牌（开/关）",
    "rules": "规则",
    "Explain the rules in effect": "讲解当前规则",
    "settings": "设置",
    "Show or change this server's rules and timers (admins change)": (
        "查看或修改本服规则与计时（管理员可改）"
    ),
    "leaderboard": "排行榜",
    "Show this server's leaderboard": "查看本服排行榜",
    "stats": "战绩",
    "Show a player's stats": "查看玩家战绩",
    "history": "历史",
    "Recent matches, or the trick-by-trick record of one hand": "最近对局，或某一局的逐墩记录",
    "seat": "座位",
    "Seat 0-3 (0 & 2 and 1 & 3 are partners)": "座位 0-3（0 与 2、1 与 3 为对家）",
    "preset": "预设",
    "A rule preset": "规则预设",
    "level": "难度",
    "Computer player strength": "电脑玩家强度",
    "cards": "牌",
    "Cards to play, e.g. AH AH KH or 10h": "要出的牌，如 AH AH KH 或 10h",
    "topic": "主题",
    "Which part of the rules": "规则的哪一部分",
    "field": "项目",
    "Setting to change": "要修改的设置",
    "value": "值",
    "New value": "新值",
    "metric": "指标",
    "Rank by": "排名依据",
    "user": "用户",
    "Whose stats (default: you)": "谁的战绩（默认：你）",
    "hand_id": "局号",
    "A hand number from the history list": "历史列表中的局号",
}
