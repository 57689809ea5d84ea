# 牌桌（cogs/presenter.py）：大厅、讨论串、实时消息、私信。
table-thread-name = 双升#{ $table } · { $host }
table-lobby-waiting = 双升#{ $table } — 等待玩家
table-lobby-footer = 对家为一队：1号和3号位（A队）对2号和4号位（B队）。只有桌主（或管理员）可以开始。
table-lobby-playing = 双升#{ $table } — 对局进行中 · 第{ $hand }局
table-lobby-won = 双升#{ $table } — { $team }赢得对局
table-lobby-closed = 双升#{ $table } — 已关闭
table-lobby-in-thread = 牌桌在{ $thread }里进行。
table-level = 打{ $level }
table-lobby-team = **{ $team }**：{ $players } · { $level }
table-place-channel-setting = 本服务器设置为在频道里打牌（`table_place: channel`），所以这桌就在这里打。
table-place-channel-no-thread = 我没有在这里开子区的权限，所以这桌在频道里打。
table-place-lost = 机器人无法再在牌桌的子区或频道发言（已删除、已归档或没有权限），牌桌已关闭。打完的牌局都保存着：见`/双升 历史`。
table-dms-closed = { $user }，我无法给你发私信，你的手牌在牌桌消息的**{ $button }**按钮里（只有你能看到）。
table-warning = ⏰ 还剩{ $seconds }秒，之后由电脑替你出牌。
table-redeal = 没人亮主：重新洗牌发牌。
table-kitty-drawn = 没人亮主，逐张翻底牌定庄：{ $cards }。{ $card }是{ $team }的级牌：{ $dealer }坐庄，{ $suit }为主。
table-kitty-drawn-none = 没人亮主，逐张翻底牌定庄：{ $cards }。没有翻到级牌。
table-deal-head = **第{ $hand }局** · 级别：{ $levels }
table-deal-levels = A队打{ $a } · B队打{ $b }
table-deal-progress = 🃏 发牌中：{ $dealt }/{ $total }张 · 打{ $level }
table-deal-bids = 亮主记录（按顺序）：
table-no-bid = 还没人亮主：在你的手牌面板里亮出级牌来定主。
table-no-bid-over = 没人亮主。
table-bidding-closes = 亮主将在{ $when }截止。
table-deal-trump = **主：{ $trump }** · { $dealer }坐庄。
table-deal-burying = 庄家正在扣底，{ $when }截止。
table-overcall-round = 底牌已扣好：从庄家下家起到庄家，每人可依次反主一次。
table-overcall-passed = 不反：{ $players }。
table-to-overcall = ▶ 轮到{ $player }反主或不反（{ $when }截止）
table-trick-head = **第{ $hand }局 · 第{ $trick }轮**
table-trick-won = 上一轮：{ $player }赢了{ $points ->
    [0] {""}
   *[other] { $side ->
        [attackers] ，闲家得{ $points }分
       *[dealer] ，庄家方保住{ $points }分
    }
} — { $plays }
table-to-lead = ▶ 轮到{ $player }首出（{ $when }截止）
table-to-play = ▶ 轮到{ $player }出牌（{ $when }截止）
table-played-for = （{ $player }由电脑代打。）
table-strip-teams = 庄家：{ $dealer }和{ $partner }，打{ $dealer_level } · 闲家：{ $attackers }，打{ $attackers_level }
table-strip-score = 闲家得分**{ $points }** · 每人剩{ $left }张
# 发牌或扣底时（各家手牌张数不同）
table-strip-points = 闲家得分**{ $points }**
table-strip-last = 上一轮：{ $plays }{ $points ->
    [0] {""}
   *[other] { $side ->
        [attackers] （闲家+{ $points }）
       *[dealer] （庄家方保住{ $points }分）
    }
}
table-throw-failed = { $player }甩牌失败：收回{ $cards }，对方得{ $penalty }分。
table-summary-head = **第{ $hand }局结束。**闲家得分：{ $points }{ $bonus }
table-summary-bonus = （抠底×{ $multiplier }：+{ $bonus }）
table-summary-levels = A队打{ $a }，B队打{ $b }。
table-next-hand = 下一局：{ $dealer }坐庄，{ $when }开始。
table-match-won = 🏆 **{ $team }**赢得对局：{ $players }！
table-panel-old = 第{ $hand }局（已结束）。
table-panel-old-result = 第{ $hand }局（已结束）。{ $result }。
table-panel-closed = 第{ $hand }局（牌桌已关闭）。
table-panel-left = 第{ $hand }局（你已离开牌桌，由电脑代打）。
table-ping-play = 🔔 双升#{ $table }：轮到你了，请在上面的面板里出牌（{ $when }截止）。
table-ping-bury = 🔔 双升#{ $table }：你是庄家，请在上面的面板里扣底（{ $when }截止）。
table-panel-role-dealer = 你是庄家一方：守分，别让闲家上台。
table-panel-role-attacker = 你是闲家：抓分上台。
table-panel-from-kitty = 底牌
table-paused = ⏸ 已暂停：存储暂不可用。什么都没有丢失；存储恢复后牌桌会自动继续（期间的操作会被拒绝：请稍后再试）。
table-resumed = ▶ 存储已恢复：牌桌继续。
table-failed = 牌桌遇到无法恢复的问题（存储故障），已关闭，此频道可以再开新桌。打完的牌局都保存着：见`/双升 历史`。
table-failed-bug = 牌桌遇到程序错误，无法恢复，已关闭，此频道可以再开新桌。打完的牌局都保存着：见`/双升 历史`。
table-button-hand = 我的手牌
table-button-last = 上一轮
table-button-rules = 规则
table-rules-topics = 选择规则主题
table-button-join = 入座
table-button-bot = 加电脑
table-button-leave = 离开
table-button-start = 开始
table-lobby-seat = **{ $seat }号位**（{ $team }队）：{ $who }
# 牌桌图片（renderers.table）：字要短（为手机放大绘制）。
table-img-head = 第{ $hand }局 · 第{ $trick }轮
table-img-dealer-team = 庄家 · 打{ $level }
table-img-attackers = 闲家 · 打{ $level }
table-img-score = 闲家得分{ $points } · 每人剩{ $left }张
table-img-points = 闲家得分{ $points }
table-img-trump = 主
table-img-no-trump = 无主
table-img-dealer = 庄家
table-img-led = 首出
table-img-winning = 最大
table-img-won = 赢
table-img-to-play = 出牌中
table-img-last = 上一轮 · { $player } +{ $points }
table-closed-over = 对局结束了。
table-closed-time-up = 时间到：不再开新局。
table-closed-everyone-left = 所有人都离开了：牌桌已关闭。
table-closed-aborted = 牌桌已解散。
table-ping-thread = 🔔 { $user }，轮到你了（{ $when }截止），请点牌桌消息的**{ $button }**按钮出牌。
