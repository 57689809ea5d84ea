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

guide-overview = **双升（拖拉机）**由四人分两队进行，对家一队（1、3号位对2、4号位）。用{ $decks }副牌，每人{ $hand }张，{ $kitty }张作底牌。

    一队坐庄守分（庄家），另一队是闲家，赢下一轮牌就得到这一轮里的分：5算5分，10和K算10分，共{ $total }分。{ $scoring ->
        [race45] 闲家得到45分或赢得最后一轮就赢下这一局。
       *[levels] 闲家得到{ $take }分或更多就上台，否则庄家升级。
    }

    两队都从2打起，一直打到A。其他主题讲解亮主、底牌、跟牌、甩牌、得分和升级。

guide-cards = 一张牌写作点数加花色：`2`-`9`、`T`（10）、`J`、`Q`、`K`、`A`，花色`S` ♠、`H` ♥、`D` ♦、`C` ♣；王是`SJ`（小王）和`BJ`（大王）。也可以输入`10h`、`A♥`、`♥A`或“红桃A”，“红桃KKQQ”就是四张红桃。

    {"**"}主牌**：大小王、所有级牌（庄家一队的级别）以及主花色的所有牌。从大到小：大王、小王、主花色级牌、其他花色级牌（彼此一样大），然后是主花色的A K Q …。打无主时只有王和级牌是主。

guide-bidding = { $bidding ->
    [joker] 发牌时，亮出一张王配一张级牌即可亮主（带王亮主）：大王配♥或♦，小王配♠或♣，这门花色就是主。不能直接亮无主。{ $decks ->
            [1] 一副牌每张牌只有一张，所以亮主既不能加固，也不能被反。
           *[other] 再亮出同样的级牌可以加固（自保）。别人可以用王带{ $decks ->
                [3] 两张或三张
               *[other] 两张
            }相同的另一花色级牌反主；亮出级牌多的压过少的。不能自己反自己。
        }
   *[standard] 发牌时亮出一张级牌，就把它的花色定为主（亮主）。{ $decks ->
            [1] 一副牌每张牌只有一张，所以先亮的主既不能加固，也不能被反。
           *[other] 再亮出同样的级牌可以加固（自保）。别人可以用另一花色更强的亮主反主，比如一对级牌；一对小王或一对大王可以亮无主。大小：一张 < 一对 < 一对小王 < 一对大王{ $decks ->
                [3] {" "}< 三张级牌 < 三张小王 < 三张大王
               *[other] {""}
            }；只有更强的亮主才能压过当前的。亮主者也可以用另一花色更强的亮主自反。
        }
}
guide-bidding-open = 第一局{ $scoring ->
        [race45] 和平局后的下一局
       *[levels] {""}
    }还没有庄家，由亮主抢庄：{ $first_dealer ->
        [final_bid] 亮主结束时最终反主者为庄家。
       *[first_bid] 先亮者为庄家{ $decks ->
            [1] 。
           *[other] ，之后的反主只改变主花色。
        }
    }{ $scoring ->
        [race45] 平局后两队级别可能不同：亮主亮的是亮主成立后坐庄一方的级牌。
       *[levels] {""}
    }
guide-bidding-dealer = { $bidding ->
    [joker] 庄家已定时，第一个亮主决定谁坐庄：庄家方亮主，亮庄家一方的级牌，庄家不变；闲家亮主，亮闲家一方的级牌，闲家上台坐庄（谁亮主谁坐庄），这一局按闲家的级别打。庄家方优先：亮主结束前，庄家方随时亮主都能把庄夺回，闲家先前的亮主作废。对定庄的那次亮主反主，只改变主花色，亮的仍是定庄一方的级牌。所以亮主亮的总是亮主成立后坐庄一方的级牌。
   *[standard] 庄家已定时，亮主只决定主花色：亮的都是庄家一方的级牌，无论谁亮主，庄家不变。
}
guide-bidding-when = { $overcall ->
    [after_bury] 抢庄的一局，亮主和反主都在发牌时及发完后的短暂时间内进行，须在庄家起底牌之前。其他各局发牌时不能反主：先亮的主有效，只有亮主者本人可以加固{ $bidding ->
            [joker] ，但庄家方仍可亮主夺回庄
           *[standard] {""}
        }。庄家先扣底，扣好后底牌不能再换；然后如果有人亮主定了主，从庄家下家开始到庄家为止，每人按顺序有一次机会反主或不反。{ $bidding ->
            [joker] 依次反主时可以用相同的王反无主。
           *[standard] {""}
        }本局亮过的花色不能再反；无主可以再反（对大王反对小王）。第一轮出牌仍由庄家先出。
   *[deal] 亮主和反主都在发牌时及发完最后一张后的短暂时间内进行，须在庄家起底牌之前。
}
guide-bidding-none = { $no_bid ->
    [redeal] 无人亮主时重新发牌，最多重发{ $redeals }次；最后一次仍无人亮主，就打无主。
    [kitty_draw] 无人亮主（双方都亮不起）时，把底牌一张张翻开给大家看，直到翻出某一队的级牌（先看庄家一方；王不算）：由这一队坐庄，庄家一方仍由庄家坐庄，闲家一方由庄家下家坐庄，以翻出的这张牌的花色为主；翻过的牌放回底牌。没有翻到级牌就重新发牌，最多重发{ $redeals }次；最后一次翻底也没有级牌，就打无主。
   *[notrump] 无人亮主时打无主。
}抢庄的一局，这里以第一个发到牌的玩家为庄家。

guide-kitty = 庄家拿起{ $kitty }张底牌，再扣下{ $kitty }张。分牌可以扣底，但有风险：闲家如果赢了最后一轮，底牌里的分要成倍算给闲家（见得分）。

guide-following = 第一轮由庄家先出，每轮的赢家先出下一轮。跟牌张数必须和首家相同；有首家出的花色就必须跟这门花色（所有主牌算一门）。

    还要按牌型跟：首家出对子要跟对子，出拖拉机（相连的对子，如7♥7♥8♥8♥）要跟拖拉机，没有就尽量跟对子，再没有才随便出这门花色。

    {"**"}例子：**首家出Q♥Q♥K♥K♥。你有7♥7♥9♥9♥3♥：没有拖拉机，所以必须出两对7♥7♥9♥9♥。如果你有7♥7♥9♥3♥，就出对子7♥7♥，再出9♥和3♥。

    没有这门花色时，可以用同样牌型的主牌毙牌，或者垫任意牌。按首家牌型出得最大的赢；一样大时先出的赢。

guide-throws = 甩牌就是一次出同一花色的几组牌，比如A♥ K♥K♥：一张单牌加一对。只有别人都无法用这门花色压过其中任何一组，甩牌才成立。

    {"**"}例子：**你甩A♥ Q♥Q♥ 5♥5♥，另一位玩家有K♥K♥，能压过你的一对Q和一对5。甩牌失败：你只能出其中最小的、能被压的一组5♥5♥，其余三张收回。{ $penalty ->
        [0] 本桌甩牌失败不罚分。
       *[other] 每收回一张，你方罚{ $penalty }分：这里是{ $penalty } × 3 = { $cost }分。
    }

guide-scoring = 闲家赢下一轮时得到这一轮里的5、10和K；庄家一方不计分。

    {"**"}抠底：**闲家如果赢了最后一轮，底牌里的分按这一轮首家的牌型成倍算给闲家：单张×{ $single }，对子×{ $pair }{ $triple ->
        [0] {""}
       *[other] ，刻子×{ $triple }
    }，两连对拖拉机×{ $tractor }，三连对拖拉机×{ $long }{ $triples ->
        [0] {""}
       *[other] ，连刻×{ $triples }
    }。

guide-levels = 闲家的得分决定谁升级（每{ $step }分一级）：
guide-race = 抢{ $target }分：闲家得到{ $target }分或以上，或赢得最后一轮，就赢下这一局并上台；两者都做到升2级，否则升1级。{ $draw ->
    [-1] {""}
   *[other] 没有赢最后一轮而正好得{ $draw }分算平局：双方都不升级，下一局重新抢庄。
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
guide-variant-kitty = 抠底：单张×{ $single }，对子×{ $pair }{ $triple ->
        [0] {""}
       *[other] ，刻子×{ $triple }
    }，两连对拖拉机×{ $tractor }，三连对拖拉机×{ $long }{ $triples ->
        [0] {""}
       *[other] ，连刻×{ $triples }
    }
guide-variant-cap = { $cap ->
    [0] 闲家得分不封顶
   *[other] 闲家得分最多按{ $cap }分计
}
guide-variant-scoring = { $value ->
    [race45] 抢45分：闲家得到45分或赢得最后一轮即赢下这一局
   *[levels] 按闲家得分升级（见升级）
}
guide-variant-assistance = { $value ->
    [none] 不提供提示、建议和上一轮查看
   *[full] 提供提示、建议和上一轮查看
}
guide-variant-finish = { $value ->
    [reach_a] 一队升到A即赢得对局
   *[defend_a] 在A级坐庄并守住才赢得对局
}
guide-variant-timers = 出牌{ $play }秒，扣底{ $kitty }秒
