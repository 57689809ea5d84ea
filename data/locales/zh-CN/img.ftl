# 图片上的字（renderers/），由 cogs/imagewords.py 传入：要短，字画得大。
img-your-hand = 我的手牌
img-cards-n = { $n }张
img-selected-n = 已选{ $n }张
img-trump = 主
img-no-trump = 无主
img-trump-unset = 未定主
img-kitty = 底牌
img-buried-by = { $name }扣底
img-kitty-points = 底牌分
img-kitty-to-attackers = × { $m } = { $bonus }归闲家
img-kitty-kept = 庄家保底
img-hand-n = 第{ $n }局
img-from-tricks = 抓分
img-penalty = 甩牌罚分
img-kitty-bonus = 抠底
img-total = 闲家得分
img-next-dealer = 下局庄家
img-defenders = 庄家
img-attackers = 闲家
img-level = 级别
# 搭档的名字之间（前后不加空格：张三和李四）
img-and = 和
# the tournament standings (cogs/cupview.py)
img-round-n = 第{ $n }轮
img-podium = 领奖台
img-bye = 轮空：记作打2获胜
img-ranking-n = 第{ $n }轮排名
