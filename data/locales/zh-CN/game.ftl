# 对局（bot/game）的错误：时机不对或座位不对。
game-err-unknown-action = 这不是本游戏的操作。
game-err-nothing-waiting = 这个座位现在不需要操作。
game-err-wrong-phase = 现在不能{ $action ->
    [deal] 发牌
    [bid] 亮主
    [close] 结束亮主
    [overcall] 反主
    [bury] 扣底
    [play] 出牌
   *[next] 开始下一局
}：{ $phase ->
    [deal] 正在发牌
    [kitty] 庄家正在扣底
    [overcall] 正在依次表态反主
    [play] 正在打牌
    [scored] 本局已结束
   *[over] 对局已结束
}。
game-err-table-only = 只有牌桌能这样做。
game-err-all-dealt = 牌已经发完了。
game-err-deal-none = 至少发一张牌。
game-err-deal-unfinished = 还没发完牌。
game-err-dealer-buries = 只有庄家扣底。
game-err-not-your-turn = 还没轮到你。
game-err-not-seated = 只有入座的玩家能这样做。
game-err-bid-not-dealt = 你只能亮已经发到你手里的牌。
game-err-bury-count = 必须正好扣{ $count }张牌（你选了{ $chosen }张）。
game-err-bury-held = 只能扣你手里的牌。
game-err-not-another = 你没有另一张{ $cards }。
game-err-not-held = 你手里没有这些牌。
