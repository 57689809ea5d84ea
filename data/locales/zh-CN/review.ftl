# Post-hand review: the Review button and /shengji review (cogs/review.py, bot/service/reviews.py).
review-button = 复盘
review-title = **第{ $hand }局复盘**：按你当时所知判断，代价最大的几次出牌。
# $loss：高手的出法对玩家一方约好多少分（升一级算5分）：闲家是多得分，庄家一方是让闲家少得分
review-line-led = { $rank }. 第{ $trick }轮：你首出{ $played }；高手会出{ $better }（{ $side ->
    [attackers] 约多得{ NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) }分
   *[dealer] 约让闲家少得{ NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) }分
}）。
review-line-played = { $rank }. 第{ $trick }轮：{ $before }，{ $winning }大；你出了{ $played }；高手会出{ $better }（{ $side ->
    [attackers] 约多得{ NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) }分
   *[dealer] 约让闲家少得{ NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) }分
}）。
# the trick before a reviewed follow: who led what, then each play after the lead
review-trick-led = { $who }首出{ $cards }
review-trick-played = { $who }出{ $cards }
# 上面几句连起来：是分句，用逗号，不用、和“和”
review-trick-two = { $first }，{ $second }
review-trick-then = { $so_far }，{ $next }
review-trick-last = { $so_far }，{ $next }
review-seat-next = 下家
review-seat-partner = 对家
review-seat-previous = 上家
review-clean = 本局你的{ $judged }次选择中没有发现代价大的失误。
review-auto = 有{ $plays }次出牌是电脑替你出的（托管或超时），不作评判。
review-partial = 时间用完：只评判了{ $judged }次选择，之后的没有评判。
review-no-hand = 本服没有这一局（`/双升 历史`可查看局号）。
review-off = 该桌不能复盘：规则不允许任何辅助。
review-not-yours = 你没有打这一局，没有你的出牌可复盘。
review-gone = 这一局的记录已不再保存，无法复盘。
review-which = 请给出局号（`/双升 历史`可查看），或在牌桌里使用。
review-none-yet = 本桌还没有打完的一局。
review-failed = 复盘没能完成，请再试一次。
