# 规则库（bot/rules）的说明，由 bot/i18n/rules.py 渲染。
rules-suit-S = 黑桃
rules-suit-H = 红桃
rules-suit-D = 方块
rules-suit-C = 梅花
rules-suit-T = 主牌
rules-suit-none = 无主
rules-card-big-joker = 大王
rules-card-small-joker = 小王

# 跟牌必须包含的牌型（$count 个），接在花色后面，读起来像玩家说的话：红桃对子、红桃拖拉机、红桃刻子；
# 也用在“其中包括……”里。
rules-unit-pair = { $count ->
    [1] 对子
    [2] 两对
   *[other] { $count }对
}
rules-unit-triple = { $count ->
    [1] 刻子
    [2] 两个刻子
   *[other] { $count }个刻子
}
rules-unit-tractor = { $count ->
    [1] {""}
    [2] 两个
   *[other] { $count }个
}{ $length ->
    [2] 拖拉机
    [3] 三连对拖拉机
   *[other] { $length }连对拖拉机
}
rules-unit-triple-tractor = { $count ->
    [1] {""}
    [2] 两个
   *[other] { $count }个
}{ $length ->
    [2] 连刻
    [3] 三连刻
   *[other] { $length }连刻
}

rules-err-card-count = 首家出了{ $count }张，你也必须出{ $count }张。
rules-err-follow-suit = 首家出的是{ $suit }，你有{ $suit }就必须跟（你还有{ $held }）。
rules-err-follow-shape = 你必须跟{ $suit }{ $need }：你还有{ $held }。
rules-err-not-held = 你手里没有{ $cards }。
rules-err-held-only = 你只有{ $count }张{ $cards }。
rules-err-empty-play = 至少出一张牌。
rules-err-copies = { $cards }出现了{ $count }次，但{ $decks }副牌每张牌只有{ $decks }张。
rules-err-mixed-lead = 一起出的牌必须是同一花色，或者都是主牌：{ $cards }混了花色。
rules-err-bad-card = { $token }不是一张牌。
rules-err-notation = “{ $token }”不是一张牌：写点数和花色，如AH、10S、5C、♥A、红桃A，王写小王/大王（或SJ/BJ）。
rules-err-bad-level = “{ $token }”不是级别：请用2-9、T（10）、J、Q、K或A。
rules-err-bad-suit = “{ $token }”不是花色：请用S、H、D、C，或不填（无主）。

rules-duty-all = { $extra ->
    [0] 你必须出剩下的{ $suit }（{ $held }）
   *[other] 你必须先出剩下的{ $suit }（{ $held }），再垫{ $extra }张别的牌
}
rules-duty-including = 你必须出{ $count }张{ $suit }，其中包括{ $need }
rules-duty-count = 你必须出{ $count }张{ $suit }

rules-bid-empty = 亮主至少要亮一张牌。
rules-bid-not-level = 亮主只能亮级牌（{ $level }）和王。
rules-bid-mixed-suits = 亮出的级牌必须是同一花色。
rules-bid-joker-shape = 用王亮主时，要亮一张王加级牌：大王配♥或♦，小王配♠或♣。
rules-bid-wrong-joker = 亮{ $suit }要配{ $joker }。
rules-bid-levels-and-jokers = 要么亮同一花色的级牌，要么亮一组王，不能混着亮。
rules-bid-no-trump-jokers = 要亮无主，须用两张（或三张）相同的王。
rules-bid-too-weak = { $cards }（{ $target_suit }）压不过当前的{ $current }（{ $current_suit }）：只有更强的亮主才能反主。
rules-bid-own-overcall = 用王亮主时，不能反自己的主。
rules-bid-same-suit = 主花色已经是{ $suit }了：请用其他花色反主。
rules-bid-overcall-after-bury = 庄家扣底之后才能反主，届时每人依次表态一次。
rules-bid-shown-before = 本局已经亮过{ $suit }了，不能重复反，请换一个。
