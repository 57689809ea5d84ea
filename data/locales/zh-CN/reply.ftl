# 斜杠命令和按钮对使用者的回复（cogs/*）。
reply-name-cards = 请写出要出的牌，如 `AH AH` 或 `10h`。
reply-played = 你出了{ $cards }。
reply-buried = 你扣了{ $cards }。
