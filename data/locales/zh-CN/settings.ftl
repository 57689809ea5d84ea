# /双升 设置：本服务器的规则和计时（cogs/settings.py）。项目名和取值保持管理员输入的原样。
settings-title = 本服务器的设置
settings-title-changed = 设置已更改
settings-footer = 每桌沿用开桌时的设置。
settings-admins-only = 只有服务器管理员（管理服务器权限）能更改设置。
settings-no-value = 请给`{ $field }`一个值。
settings-bad-field = 没有叫`{ $field }`的设置。
settings-bad-place = `table_place`只能是`thread`（每桌一个子区）或`channel`（频道）。
settings-bad-language = `language`只能是`zh`（中文）、`en`（英文）或`auto`（自动）。
settings-bad-big-light = `big_light_league`是1到20之间的整数积分。
settings-bad-think = `think_ms`须为{ $low }到{ $high }之间的整数毫秒数。
settings-bad-max-tables = `max_tables`（同时进行的牌桌数）须为1到{ $most }之间的整数。
settings-bad-seconds = `{ $field }`是0到600之间的秒数。
settings-bad-rule = `{ $field }`不能设为`{ $value }`：只能是{ $allowed }之一。
settings-bad-rule-number = `{ $field }`不能设为`{ $value }`：需要一个整数。
settings-bad-throw-penalty = `{ $field }`不能设为`{ $value }`：只能是0或5的倍数。
settings-bad-turn-seconds = `{ $field }`不能设为`{ $value }`：需要5到3600之间的整数秒。
