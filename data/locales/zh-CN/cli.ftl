# 终端游戏（python -m bot play [--watch] [--lang zh]）。
cli-help = 用记法输入牌，如“AH AH KH”（10写作T；王写SJ、BJ）。命令：“提示”给出建议，“代出”让电脑代出这一手，“托管”本场对局剩下的都交给电脑，“复盘”（一局结束后）列出你代价最大的出牌，“退出”结束游戏（英文命令hint、auto、auto all、review、quit也可以）。
cli-help-no-assistance = 用记法输入牌，如“AH AH KH”（10写作T；王写SJ、BJ）。命令：“代出”让电脑代出这一手，“托管”本场对局剩下的都交给电脑，“退出”结束游戏（英文命令auto、auto all、quit也可以）。本桌不许查牌、不许提示（没有提示，也不能复盘）。
# 种子是编号：数字不分组（20240517，不写20,240,517）
cli-title = 双升 · 种子{ NUMBER($seed, useGrouping: 0) } · 你坐{ $seat }号位（南）
cli-title-watch = 双升 · 种子{ NUMBER($seed, useGrouping: 0) } · 四位电脑玩家；你从{ $seat }号位（南）观战
cli-bye = 再见。
cli-you-win = 你们赢得了对局！
cli-they-win = 对手赢得了对局。
cli-next-hand = 按回车开始下一局（或输入“退出”）：
cli-hand-start = === 第{ $hand }局：你方打{ $ours }，对方打{ $theirs } ===
cli-redeal = 无人亮主：重新发牌。
cli-bid = { $who }{ $kind ->
    [reinforce] 自保：{ $cards }（{ $suit }）。
    [overcall] 反主：{ $cards }（{ $suit }）。
   *[declare] 亮{ $cards }（{ $suit }）。
}
cli-dealt = 已发{ $dealt }/{ $total }张。你的牌：
cli-current-bid = 当前亮主：{ $who }亮了{ $cards }。
cli-may-bid = 你可以亮：{ $menu }
cli-bid-prompt = 亮主（输入序号或牌，回车跳过）：
cli-bid-prompt-last = 亮主（输入序号或牌，回车跳过，最后机会）：
cli-hint-bid = 提示：亮{ $cards }。
cli-hint-pass = 提示：暂时不亮。
cli-trump-nobody = 主：{ $trump }（无人亮主）。庄家：{ $dealer }；你方{ $defends ->
    [yes] 坐庄
   *[no] 是闲家
}。
cli-trump-bid = 主：{ $trump }，{ $bidder }亮的。庄家：{ $dealer }；你方{ $defends ->
    [yes] 坐庄
   *[no] 是闲家
}。
cli-took-kitty = 你是庄家，拿到了底牌：{ $cards }
cli-your-cards = 你的牌：
cli-bury-prompt = 扣{ $count }张底牌：
cli-duty = 【{ $duty }】
cli-play-prompt = 你出：
cli-hint-play = 提示：{ $cards }（输入：{ $code }）
cli-autopilot = 从现在起电脑替你出牌（托管）。
cli-buried-mine = { $who }扣了{ $cards }。
cli-not-allowed = 不能这样出：{ $reason }
cli-table = 第{ $trick }轮 · 主：{ $trump } · 闲家得分{ $points } · 级别：你方{ $ours }，对方{ $theirs } · 你方{ $attacking ->
    [yes] 是闲家
   *[no] 坐庄
}
cli-trick-line = { $who }：{ $cards }
cli-you-lead = 你先出。
# a seat the computer plays for its person (托管): its name in the lines above and below
cli-who-auto = { $who }（托管）
cli-played = { $who }出了{ $cards }
cli-throw-failed = { $who }想甩{ $attempted }，但能被压住：{ $back }收回，罚{ $penalty }分。
cli-trick-won = → { $who }赢了第{ $trick }轮{ $points ->
    [0] {""}
   *[other] { $side ->
        [attackers] ，闲家得{ $points }分
       *[dealer] ，庄家方保住{ $points }分
    }
}；闲家现在共{ $total }分。
cli-buried = { $who }扣好了底牌。
cli-hand-over = --- 第{ $hand }局结束 ---
cli-kitty = 底牌：{ $cards }（{ $points }分）
cli-kitty-bonus = 闲家赢了最后一轮：抠底×{ $multiplier } = { $bonus }分。
cli-failed-throw = { $who }甩牌失败，罚{ $penalty }分。
cli-result = 闲家得分：{ $points } → { $winner ->
    [dealer] 庄家升{ $levels }级
   *[attackers] { $levels ->
        [0] 闲家上台
       *[other] 闲家上台并升{ $levels }级
    }
}。
cli-draw = 闲家得分：{ $points } → 平局：双方都不升级。
cli-levels = 级别：你方{ $ours }，对方{ $theirs }。下一局庄家：{ $dealer }。
cli-suit-group = { $suit }：{ $cards }
cli-no-cards = （没有牌）
cli-seat-you = 你
cli-seat-east = 东家
cli-seat-north = 北家（对家）
cli-seat-west = 西家
cli-trump-none = 无主 · 打{ $level }
cli-trump-suit = { $suit } · 打{ $level }
cli-review-later = 本局结束后才能复盘。
cli-review-wait = 正在复盘你的出牌（需要几秒钟）。
cli-review-none = 本局你的{ $judged }次选择中没有发现代价大的失误。
cli-kitty-drawn = 无人亮主，翻底牌：{ $cards }。{ $who }坐庄，{ $suit }为主。
cli-kitty-drawn-none = 无人亮主，翻底牌：{ $cards }。没有翻到级牌。
cli-overcall-round = 底牌已扣好：从{ $who }开始到庄家，每人可依次反主一次。
cli-overcall-trump = 底牌已扣好。主：{ $trump }。你的牌：
cli-may-overcall = 你可以反主一次：{ $menu }
cli-overcall-prompt = 反主（输入序号或牌，回车表示不反）：{" "}
cli-overcall = { $who }用{ $cards }反主（{ $suit }）。
cli-passes = { $who }不反。
cli-round-over = 主：{ $trump }。{ $who }先出。
# python -m bot tournament (bot/tournament/cli.py): a tournament among computer teams
cli-cup-title = 电脑队伍比赛：{ $teams }支队伍（电脑难度：{ $players }），种子{ $seed }，规则预设「{ $preset }」，每轮{ $hands }局，前{ $advance }名晋级，领奖台{ $podium }个名次
cli-cup-random = 随机出牌
cli-cup-team = 队伍{ NUMBER($n, minimumIntegerDigits: 2) }
cli-cup-round = 第{ $round }轮（共{ $rounds }轮，{ $matches }场对局）
cli-cup-bye = { $team }：轮空（记作打2获胜）
cli-cup-beat = { $winner }（打{ $won }）胜{ $loser }（打{ $lost }），共{ $hands }局
cli-cup-outright = { $winner }（打{ $won }）胜{ $loser }（打{ $lost }），守住A直接获胜
cli-cup-advancing = 晋级：{ $teams }
cli-cup-podium = 领奖台：{ $teams }
