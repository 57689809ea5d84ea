# 战绩：/双升 排行榜、战绩和历史（cogs/records.py）。
records-metric-league = 积分
records-metric-rating = 等级分
records-metric-wins = 胜场
records-metric-hands = 局数
records-bad-metric = 没有按`{ $metric }`排的排行榜。
records-leaderboard = 排行榜 · { $metric }
records-leader-line = **{ $rank }.** { $name } — { $value } · { $matches }场{ $wins }胜 · { $hands }局
records-no-hands = 本服务器还没有打完的牌局。
records-no-stats = { $name }在本服务器还没有牌局记录。
records-stats = 战绩 · { $name }
records-tournaments = 比赛
records-stat-matches = 场次
records-matches-won = { $matches }（胜{ $wins }场）
records-stat-hands = 局数
records-stat-dealer = 坐庄
records-stat-partner = 庄家对家
records-stat-attacker = 做闲家
records-stat-levels = 升级数
records-stat-kitty = 抠底
records-kitty-bonuses = { $count }次（{ $points }分）
records-stat-failed-throws = 甩牌失败
records-stat-league = 积分
# 等级分，括号里是均值μ和不确定度σ
records-rating = { NUMBER($rating, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) }（μ { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) }，σ { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) }）
records-stat-rating = 等级分
records-no-matches = 本服务器还没有对局记录。
records-recent = 最近的对局
records-recent-footer = 逐轮查看一局：/双升 历史 局号:<数字>
records-match-hands = 局号：{ $hands }
records-in-progress = 进行中
records-aborted = 提前结束
records-won-by = { $team ->
    [0] A队
   *[1] B队
}获胜
records-match-line = 第{ $table }桌：{ $players } · { $count }局 · { $result }
records-no-hand = 本服务器没有第{ $hand }局。
records-hand-head = **第{ $hand }局** · 主：{ $trump } · 庄家：{ $dealer } · 闲家得{ $points }分
records-trick-line = { $n }. { $plays } → { $winner }{ $points ->
    [0] {""}
   *[other] { $side ->
        [attackers] （闲家+{ $points }）
       *[dealer] （保住{ $points }分）
    }
}
# 这一局前后两队的级别，先A队后B队
records-hand-end = 底牌：{ $kitty } · 级别（A队/B队）：{ $before_a }/{ $before_b } → { $after_a }/{ $after_b }
records-image-title = 第{ $hand }局 · 主：{ $trump } · 闲家{ $points }分
records-image-kitty = 底牌（{ $points }分）
