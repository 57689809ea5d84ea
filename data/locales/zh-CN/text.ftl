# 面板、牌桌和战绩共用的名称（cogs/text.py）。
text-team-a = A队（1、3号位）
text-team-b = B队（2、4号位）
text-pair = { $first }和{ $second }
text-trump-unset = 尚未定主
text-trump = { $suit } · 打{ $level }
text-bid = { $kind ->
    [reinforce] { $name }自保：{ $cards }
    [overcall] { $name }反主：{ $cards }（{ $suit }）
   *[declare] { $name }亮{ $cards }（{ $suit }）
}
text-bid-no-trump = 无主（{ $cards }）
text-bid-declare = 亮主{ $cards }
text-bid-reinforce = 自保{ $cards }
text-bid-overcall = 反主{ $cards }
text-result = { $winner ->
    [dealer] 庄家升{ $gained }级{ $gained ->
        [3] （大光）
        [2] （小光）
       *[other] {""}
    }
    [draw] 平局：双方都不升级
   *[attackers] { $gained ->
        [0] 闲家上台
       *[other] 闲家上台并升{ $gained }级
    }
}
text-result-line = { $result }。
