# 给玩家看的规则（/shengji rules 和牌桌下的规则按钮；bot/i18n/guide.py）。
guide-title-overview = 游戏简介
guide-title-cards = 牌与主牌
guide-title-bidding = 亮主
guide-title-kitty = 底牌
guide-title-following = 跟牌
guide-title-throws = 甩牌
guide-title-scoring = 得分与抠底
guide-title-levels = 升级
guide-title-variants = 本桌规则

guide-overview = **双升（拖拉机）**由四人分两队进行，对家一队（0、2号位对1、3号位）。用{ $decks }副牌，每人{ $hand }张，{ $kitty }张作底牌。

    一队坐庄守分（庄家），另一队是闲家，赢墩得分：5算5分，10和K算10分，共{ $total }分。{ $scoring ->
        [race45] 闲家得到45分或赢得最后一墩就赢下这一局。
       *[levels] 闲家得到{ $take }分或更多就上台，否则庄家升级。
    }

    两队都从2打起，一直打到A。其他主题讲解亮主、底牌、跟牌、甩牌、得分和升级。

guide-cards = 一张牌写作点数加花色：`2`-`9`、`T`（10）、`J`、`Q`、`K`、`A`，花色 `S` ♠、`H` ♥、`D` ♦、`C` ♣；王是 `SJ`（小王）和 `BJ`（大王）。也可以输入 `10h` 或 `A♥`。

    {"**"}主牌**：两种王、所有级牌（庄家一队的级别）以及主花色的所有牌。从大到小：大王、小王、主花色级牌、其他花色级牌（彼此一样大），然后是主花色的 A K Q …。打无主时只有王和级牌是主。

guide-bidding = 发牌时亮出一张级牌，就把它的花色定为主（亮主）。再亮一张同样的级牌可以加固（自保）。别人可以用另一花色的一对级牌反主，用一对相同的王反无主。

    大小：一张 < 一对 < 两张小王 < 两张大王；只有更强的亮主才能压过当前的。第一局谁亮主成功谁坐庄。

guide-kitty = 庄家拿起{ $kitty }张底牌，再扣下{ $kitty }张。分牌可以扣底，但有风险：闲家如果赢了最后一墩，底牌里的分要翻倍算给闲家（见得分）。

guide-following = 第一墩由庄家先出，每墩的赢家出下一墩。跟牌张数必须和首家相同；有首家出的花色就必须跟这门花色（所有主牌算一门）。

    还要按牌型跟：首家出对子要跟对子，出拖拉机（相连的对子，如 7♥7♥8♥8♥）要跟拖拉机，没有就尽量跟对子，再没有才随便出这门花色。

    {"**"}例子：**首家出 Q♥Q♥K♥K♥。你有 7♥7♥9♥9♥3♥：没有拖拉机，所以必须出两对 7♥7♥9♥9♥。如果你有 7♥7♥9♥3♥，就出对子 7♥7♥，再出 9♥ 和 3♥。

    没有这门花色时，可以用同样牌型的主牌毙牌，或者垫任意牌。按首家牌型出得最大的赢；一样大时先出的赢。

guide-throws = 甩牌就是一次出同一花色的几个单元，比如 A♥ K♥K♥：一张单牌加一对。只有别人都无法用这门花色压过其中任何一个单元，甩牌才成立。

    {"**"}例子：**你甩 A♥ Q♥Q♥ 5♥5♥，另一位玩家有 K♥K♥，能压过你的一对Q和一对5。甩牌失败：你只能出最小的可被压的单元 5♥5♥，其余三张收回。{ $penalty ->
        [0] 本桌甩牌失败不罚分。
       *[other] 每收回一张，你方罚{ $penalty }分：这里是 { $penalty } × 3 = { $cost }分。
    }

guide-scoring = 闲家赢墩时得到其中的5、10和K；庄家一方不计分。

    {"**"}抠底：**闲家如果赢了最后一墩，底牌里的分按这一墩首家的牌型翻倍算给闲家：单张×{ $single }，对子×{ $pair }，连对×{ $tractor }，三连对×{ $long }。

guide-levels = 闲家的得分决定谁升级（每{ $step }分一级）：
guide-race = 抢{ $target }分：闲家得到{ $target }分或以上，或赢得最后一墩，就赢下这一局并上台；两者都做到升2级，否则升1级。{ $draw ->
    [-1] {""}
   *[other] 没有赢最后一墩而正好得{ $draw }分算平局：双方都不升级，下一局重新抢庄。
}否则庄家升1级。
guide-band-dealer = { $points }分：庄家升{ $gain }级{ $gain ->
    [3] （大光）
    [2] （小光）
   *[other] {""}
}
guide-band-attackers = { $points }分：{ $gain ->
    [0] 闲家上台
   *[other] 闲家上台并升{ $gain }级
}

guide-variants = **本桌规则**
guide-variant-decks = { $decks }副牌：每人{ $hand }张，底牌{ $kitty }张，共{ $total }分
guide-variant-bidding = { $value ->
    [joker] 带王亮主：大王配♥或♦，小王配♠或♣
   *[standard] 亮级牌定主；一对可以反主，一对王反无主
}
guide-variant-no-bid = { $value ->
    [redeal] 无人亮主时重新发牌
    [kitty_draw] 无人亮主时翻底牌，翻到级牌定庄家和主
   *[notrump] 无人亮主时打无主
}
guide-variant-first-dealer = { $value ->
    [final_bid] 第一局最终反主者坐庄
   *[first_bid] 第一局先亮主者坐庄
}
guide-variant-overcall = { $value ->
    [after_bury] 从第二局起，庄家扣底后各家按顺序各有一次反主机会
   *[deal] 发牌时即可反主
}
guide-variant-fixed-two = { $value ->
    [true] 2为常主
   *[false] 2不是常主
}
guide-variant-chain = { $value ->
    [true] 主牌的A、级牌和王的对子可以连成拖拉机
   *[false] 主牌的A、级牌和王的对子不能连成拖拉机
}
guide-variant-follow = { $value ->
    [suit_only] 跟牌只需跟花色，不必跟牌型
   *[strict] 跟牌须按牌型：有对跟对，有拖拉机跟拖拉机
}
guide-variant-throw = { $penalty ->
    [0] 甩牌失败不罚分
   *[other] 甩牌失败每收回一张罚{ $penalty }分
}
guide-variant-kitty = 抠底：单张×{ $single }，对子×{ $pair }，连对×{ $tractor }，三连对×{ $long }
guide-variant-cap = { $cap ->
    [0] 闲家得分不封顶
   *[other] 闲家得分最多按{ $cap }分计
}
guide-variant-scoring = { $value ->
    [race45] 抢45分：闲家得到45分或赢得最后一墩即赢下这一局
   *[levels] 按闲家得分升级（见升级）
}
guide-variant-assistance = { $value ->
    [none] 不提供提示、建议和上一墩查看
   *[full] 提供提示、建议和上一墩查看
}
guide-variant-finish = { $value ->
    [reach_a] 一队升到A即赢得比赛
   *[defend_a] 在A级坐庄并守住才赢得比赛
}
guide-variant-timers = 出牌{ $play }秒，扣底{ $kitty }秒
