# 比赛：/双升 比赛 的回复和拒绝（cogs/tournament.py、bot/tournament/service.py）
# 以及频道里的消息（cogs/cupview.py）。
tournament-none-here = 本频道没有比赛。用`/双升 比赛 创建`创建一个。
tournament-gone = 那场比赛已经结束或不存在了。
tournament-exists = 本频道已经有一场比赛，请换一个频道。
tournament-no-preset = 没有叫`{ $preset }`的预设。
tournament-no-name = 请给比赛起个名字。
tournament-bad-format = 每轮时长须大于0分钟，至少2队晋级，领奖台至少1个名次。
tournament-registration-closed = 报名已截止。
tournament-partner-self = 搭档必须是别人。
tournament-already-registered = 你已经报名了（队伍：{ $team }）。
tournament-partner-taken = { $name }已经在一支队伍里了。
tournament-full = 比赛已满（{ $count }队）。
tournament-name-taken = 已经有队伍叫{ $team }，请换个名字。
tournament-not-named = 没有人把你报为搭档。
tournament-partner-confirms = 要由你的搭档确认，不是你。
tournament-already-confirmed = 队伍{ $team }已经确认过了。
tournament-not-registered = 你没有报名。
tournament-organiser-only = 只有组织者（或有管理服务器/管理活动权限的人）能这样做。
tournament-started = 比赛已经开始了。
tournament-bots-count = { $count ->
    [0] 比赛已满：没有空位给电脑队了。
   *[other] 电脑队的数量须在1到{ $count }之间。
}
tournament-too-few = 至少需要两支已确认的队伍才能开始。
tournament-same-names = 有两支队伍同名；其中一支须换个名字重新报名。
tournament-not-in-match = 你不在这场对局里。
tournament-no-match-here = 这里没有等待开始的比赛对局。
tournament-no-round = 现在没有进行中的一轮。
tournament-clock-running = 本轮的计时已经在走了。
tournament-round-not-started = 本轮还没开始。
tournament-already-paused = 本轮已经暂停了。
tournament-time-already-up = 本轮时间已到：最后几局正在打完。
tournament-not-paused = 本轮没有暂停。
tournament-extend-positive = 延时须是正的分钟数。
tournament-already-checked-in = 你已经签到了。
tournament-checked-in = 签到成功：祝你好运！
tournament-no-threads = 我不能在这里为每场对局开子区：请给我“创建公开子区”和“在子区中发送消息”权限，然后再用一次`/双升 比赛 开始`。
tournament-create-who = 创建比赛需要管理服务器或管理活动权限。
tournament-created = 比赛**{ $name }**已创建：开始报名。
tournament-partner-bot = 搭档必须是真人；电脑队由组织者添加。
tournament-registered = 队伍**{ $team }**已报名。{ $partner }需要在报名消息上点“确认”按钮。
tournament-withdrew = 队伍**{ $team }**已退赛。
tournament-confirmed = 报名成功：队伍**{ $team }**已确认。
tournament-bots-added = 已添加{ $count }支电脑队（{ $level }，标有🤖，不参与排名）。
tournament-closed = 报名已截止。
tournament-started-reply = 比赛开始：{ $count }支队伍，共{ $rounds }轮，抽签种子`{ $seed }`。
tournament-cancelled = **{ $name }**已取消。
tournament-paused = 本轮计时已暂停。
tournament-resumed = 本轮计时继续。
tournament-extended = 本轮延长{ $minutes }分钟。
tournament-partner-placeholder = 你的搭档
tournament-partner-question = 你的搭档是谁？
# 频道里的消息
tournament-all-open = 本轮所有对局都已开始。
tournament-not-opened = 第{ $round }轮还有对局没能开始。请再用一次`/双升 比赛 开始`开启其余对局。
tournament-cancelled-note = { $name }已被组织者取消。
tournament-round-started = 第{ $round }轮开始了。
tournament-draw-seed = 🎲 抽签种子`{ $seed }`：任何人都可以用`python -m bot tournament --teams { $teams } --seed { $seed }`复核抽签（命令输出里的队伍编号01、02……依次对应报名名单上的各队）。
tournament-over = 🏆 { $name }结束了！领奖台：{ $places }
tournament-time-up = ⏱️ 第{ $round }轮时间到。不再开新局；正在打的局打完为止。
tournament-match-thread = **{ $title }**：对局在下方的子区中进行。
# a match's thread (its name) and its first message in the tournament's channel
tournament-thread = 第{ $round }轮 · { $a }对{ $b }
tournament-match-opened = 第{ $round }轮：{ $teams }。**{ $team }**坐1号和3号位。
# 一场比赛的两队，用在上一行
tournament-versus = { $a }对{ $b }
tournament-check-in = { $players }：请在{ $minutes }分钟内点“我到了”，否则由电脑玩家代替你。
tournament-button-here = 我到了
tournament-team-computer = 🤖 **{ $team }**（电脑，{ $level }）
tournament-level = { $level ->
    [easy] 简单
    [expert] 高手
   *[normal] 普通
}
tournament-team-confirmed = **{ $team }**：{ $a }和{ $b } ✅
tournament-team-waiting = **{ $team }**：{ $a }和{ $b } ⏳ 等待搭档确认
tournament-reg-open = 🏆 { $name } — 报名中
tournament-reg-closed = 🏆 { $name } — 报名已截止
tournament-no-teams = 还没有队伍。
tournament-format = 赛制
tournament-format-line = 规则：{ $preset } · 每轮{ $minutes }分钟 · 前{ $advance }名胜者晋级 · 领奖台{ $podium }个名次
tournament-winner-title = 对局胜负
tournament-winner-rule = 守住A的一方直接获胜；本轮时间到（不再开新局，正在打的局打完）时，级别高的一方获胜，级别相同则坐庄的一方获胜。胜者之间依次按所到级别、升级数、每局闲家得分排名，仍相同则按抽签顺序。
tournament-reg-footer = 和搭档一起报名，由搭档确认。/双升 比赛 报名
tournament-button-register = 报名
tournament-button-confirm = 确认
tournament-button-withdraw = 退赛
tournament-not-started = 还没开始。
tournament-standings = 🏆 { $name } — 排名
tournament-podium = 领奖台：{ $places }
tournament-status-finished = 已结束
tournament-status-cancelled = 已取消
tournament-status-registration = 报名中
tournament-status-round = 第{ $round }轮（共{ $rounds }轮）· 还剩{ $minutes }分钟
tournament-status-paused = 第{ $round }轮（共{ $rounds }轮）· 还剩{ $minutes }分钟（已暂停）
tournament-status-time-up = 第{ $round }轮：时间到，最后几局正在打完
tournament-result-out = 第{ $round }轮出局
tournament-result-playing = 比赛中（第{ $round }轮）
tournament-row-advances = 晋级
tournament-row-won = 胜
tournament-row-lost = 负
tournament-place = { $place ->
    [1] 🥇 第1名
    [2] 🥈 第2名
    [3] 🥉 第3名
   *[other] { $form ->
       *[other] 第{ $place }名
    }
}
# 电脑队的名字：组织者加入时按服务器的语言取。
tournament-bot-team = 电脑队{ $n }
tournament-left-out = 未确认、未参赛：{ $teams }。
