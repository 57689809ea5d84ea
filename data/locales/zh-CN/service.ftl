# 牌桌服务的拒绝（bot/service.py 的 UserError），回复给发出请求的玩家。
service-no-table = 本频道没有牌桌。用`/双升 开桌`开一桌。
service-table-exists = 本频道已经有一桌了：请加入，或到别的频道开桌。
service-table-exists-short = 本频道已经有一桌了。
service-no-player = 那个座位没有可替换的玩家。
service-started-wait = 本桌已经开始，请等下一桌。
service-already-seated = 你已经坐在{ $seat }号位。
service-bots-before-start = 电脑玩家只能在开局前加入。
service-bot-level = 电脑玩家有三个等级：简单、普通、高手。
service-not-seated = 你没有在本桌入座。
service-kick-host = 只有桌主或管理员能踢人。
service-kick-before = 只能在开局前踢人。
service-seat-empty = { $seat }号位是空的。
service-already-started = 本桌已经开始了。
service-start-host = 只有桌主（{ $host }）或管理员能开始。
service-need-four = 需要四位玩家：还有{ $count }个空位（{ $seats }号位），可以用`/双升 加电脑`补上。
service-abort-who = 只有桌主、管理员或入座的玩家能解散。
service-not-started = 游戏还没开始。
service-closed = 本桌已关闭。
service-hint-who = 游戏开始后，入座的玩家才能使用提示。
service-hint-turn = 还没轮到你，暂时没有建议。
service-hint-off = 本桌不提供提示和建议（不许提示）。
service-restarting = 机器人正在重启，请稍后再试。
service-full = 四个座位都有人了。
service-seat-range = 座位编号是1到4（1与3、2与4为对家）。
service-seat-taken = { $seat }号位已被{ $name }占用。
service-not-your-turn = 还没轮到你：正在等{ $name }。
service-moved-on = 你的操作送达前牌局已经往下进行了（可能是时间到了），这次操作没有生效。
service-not-saved = 没能保存，所以这一步没有生效，请再试一次。
service-not-saved-closed = 没能保存，牌桌只好关闭，请开一张新桌。
service-wrong-place = 这不是你所在牌桌的面板。
service-not-yours = 这是别的玩家的面板。
service-cooldown = 慢一点：{ $seconds }秒后再试。
service-guild-full = 本服务器已有{ $count }张进行中的牌桌，请先结束一张。
service-host-full = 你已经是{ $count }张进行中牌桌的桌主，请先结束一张。
service-table-closed = 那一桌已关闭，用`/双升 开桌`开新的一桌。
# 电脑玩家的名字：入座时按本桌的语言取，之后随座位保留。
service-bot-name = { $n ->
    [1] 电脑甲
    [2] 电脑乙
    [3] 电脑丙
    [4] 电脑丁
    [5] 电脑戊
    [6] 电脑己
   *[other] 电脑庚
}
# 中途离开的玩家：由电脑托管，沿用其名字。
service-bot-stands-in = { $name }（托管）
service-kick-self = 那是你自己的座位，离座请用`/双升 离开`。
service-hint-deal = 出牌阶段才有提示。
