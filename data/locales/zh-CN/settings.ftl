# /双升 设置：本服务器的规则和计时（cogs/settings.py）。项目名和取值保持管理员输入的原样，旁边写上读者语言里的名称。
settings-title = 本服务器的设置
settings-title-changed = 设置已更改
settings-footer = 每桌沿用开桌时的设置。
settings-admins-only = 只有服务器管理员（管理服务器权限）能更改设置。
settings-no-value = 请给`{ $field }`一个值。
settings-bad-field = 没有叫`{ $field }`的设置。
settings-bad-place = `table_place`只能是`thread`（每桌一个子区）或`channel`（频道）。
settings-bad-language = `language`只能是`zh`（中文）、`en`（英文）或`auto`（自动）。
settings-bad-big-light = `big_light_league`是1到20之间的整数积分。
# 上下限是要输入的值：数字不分组（2000，不写2,000）
settings-bad-think = `think_ms`须为{ NUMBER($low, useGrouping: 0) }到{ NUMBER($high, useGrouping: 0) }之间的整数毫秒数。
settings-bad-max-tables = `max_tables`（同时进行的牌桌数）须为1到{ $most }之间的整数。
settings-bad-seconds = `{ $field }`是0到600之间的秒数。
settings-bad-rule = `{ $field }`不能设为`{ $value }`：只能是{ $allowed }。
settings-bad-rule-number = `{ $field }`不能设为`{ $value }`：需要一个整数。
settings-bad-throw-penalty = `{ $field }`不能设为`{ $value }`：只能是0或5的倍数。
settings-bad-turn-seconds = `{ $field }`不能设为`{ $value }`：需要5到3600之间的整数秒。
# 每个取值的名称，写在管理员输入的取值旁（设置列表，以及“值”选项的提示）
settings-value-now = { $value }（现在）
settings-value-decks = { $value ->
    [1] 一副牌
    [3] 三副牌
   *[2] 两副牌
}
settings-value-bidding = { $value ->
    [joker] 带王亮主
   *[standard] 级牌亮主
}
settings-value-no_bid = { $value ->
    [redeal] 重新发牌
    [kitty_draw] 翻底定主
   *[notrump] 打无主
}
settings-value-first_dealer = { $value ->
    [final_bid] 最终反主者坐庄
   *[first_bid] 先亮者坐庄
}
settings-value-overcall = { $value ->
    [after_bury] 扣底后反主
   *[deal] 发牌时反主
}
settings-value-yes-no = { $value ->
    [yes] 是
   *[no] 否
}
settings-value-follow_shape = { $value ->
    [suit_only] 只须跟花色
   *[strict] 须跟花色、对子和拖拉机
}
settings-value-kitty_multiplier = { $value ->
    [flat] 一律×{ $single }
   *[other] 单张×{ $single }，对子×{ $pair }，拖拉机×{ $tractor }
}
settings-value-points_cap = { $value ->
    [200] 最多计200分
   *[none] 不封顶
}
settings-value-scoring = { $value ->
    [race45] 抢45分
   *[levels] 按分升级
}
settings-value-assistance = { $value ->
    [none] 不许查牌、不许提示
   *[full] 可提示、可看上一轮
}
settings-value-finish = { $value ->
    [reach_a] 升到A即胜
   *[defend_a] 坐庄打过A才胜
}
settings-value-table_place = { $value ->
    [channel] 在频道里
   *[thread] 每桌一个子区
}
settings-value-language = { $value ->
    [zh-CN] 中文
    [en-US] 英文
   *[auto] 跟随服务器
}
settings-no-field = 请用`项目`选项选择要修改的设置。
