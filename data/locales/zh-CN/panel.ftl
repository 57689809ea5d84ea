# 私人手牌面板（cogs/panels.py），用玩家的语言。
panel-trump = **主：**{ $trump }
panel-dealt = 已发{ $dealt }/{ $total }张牌。
panel-current-bid = 当前亮主：{ $name }亮了{ $cards }。
panel-bid-below = 发牌时可以点下面的按钮亮主。
panel-no-bid = 现在没有可亮的牌。
panel-bury = 你是庄家：选{ $count }张牌扣底。
panel-lead = **轮到你首出。**可以出单张、对子、拖拉机或甩牌。
panel-on-table = 桌上：{ $plays }
panel-follow = **轮到你**跟牌。
panel-follow-duty = **轮到你**跟牌：{ $duty }。
panel-selected = 已选：{ $cards }
panel-bury-confirm = 扣下{ $cards }？扣下后不能更改。
panel-button-confirm = 确认扣底
panel-button-back = 返回
panel-button-bury = 扣底
panel-button-play = 出牌
panel-button-suggest = 建议
panel-button-clear = 清除
panel-button-pass = 不反
panel-overcall = **底牌已扣好。**现在可以反主一次，或者不反。
panel-waiting = 等待{ $name }。
# 手牌图片的标题；张数由图片自己写
panel-title = 你的手牌
# 菜单里的一张牌：名称，括号里是代码：大王（BJ）
panel-option = { $card }（{ $code }）
panel-jokers = 王
# a card menu's placeholder: the suits it holds and how many cards
panel-menu = { $groups }（{ $count }张）
panel-select-bury = 请正好选{ $count }张牌扣底（已选{ $chosen }张）。
panel-select-play = 请选择要出的牌。
