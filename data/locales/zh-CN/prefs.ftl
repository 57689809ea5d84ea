# /shengji prefs（cogs/prefs.py）：每位玩家的显示偏好。
prefs-title = 你的偏好设置
prefs-footer = 在每张牌桌都有效，用于你的面板和只有你能看到的图片。
prefs-saved = 已保存。你的面板从现在起使用新设置。
prefs-field-language = 语言
prefs-field-four-color = 四色花色
prefs-field-theme = 主题
prefs-field-card-size = 牌面大小
prefs-field-turn-dm = 轮到你时私信提醒
# 列表的一行：偏好的名称、修改时输入的项目名、现在的值
prefs-line = **{ $name }**（`{ $field }`）：{ $value }
prefs-value-language = { $value ->
    [zh-CN] 中文
    [en-US] 英文
   *[auto] 自动（跟随Discord）
}
prefs-value-switch = { $value ->
    [on] 开
   *[off] 关
}
prefs-value-choice = { $value ->
    [dark] 深色
    [light] 浅色
    [normal] 普通
   *[large] 大
}
prefs-bad-field = 没有名为`{ $field }`的偏好设置。用`/双升 偏好`查看全部。
prefs-bad-value = { $field }只能是：{ $allowed }。没有做任何更改。
# 每项偏好可以输入的词，用本语言（cogs/prefs.py WORDS）
prefs-allowed-language = 中文、英文、自动
prefs-allowed-switch = 开、关
prefs-allowed-theme = 深色、浅色
prefs-allowed-card-size = 普通、大
prefs-no-field = 请用`项目`选项选择要修改的偏好。
