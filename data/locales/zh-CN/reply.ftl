# 斜杠命令和按钮对使用者的回复（cogs/*）。
reply-name-cards = 请写出要出的牌，如 `AH AH` 或 `10h`。
reply-played = 你出了{ $cards }。
reply-buried = 你扣了{ $cards }。
reply-table-opened = 已开桌：你坐0号位。其他人用 `/双升 入座` 或“入座”按钮加入；用 `/双升 加电脑` 补空位。
reply-started = 比赛开始：发牌时你的手牌会通过私信发给你。
reply-seated = 你坐在{ $seat }号位。
reply-bot-seated = 一位电脑玩家坐在{ $seat }号位。
reply-left = 你离开了座位。
reply-left-replaced = 你离开了；从现在起由电脑玩家替你打。
reply-left-closed = 你是最后一位玩家：牌桌已关闭。
reply-kicked = { $name }离开了{ $seat }号位。
reply-aborted = 牌桌已关闭。
reply-abort-vote = 已记下你的解散投票（{ $votes }/{ $needed }票）。
reply-stale = 没有成功；请重新打开你的手牌面板。
