"""The core: rules, game, computer players, store and table service (no Discord here).

The computer players' hot modules run compiled when a fresh build exists
(``bot.compiled``): the finder goes in before any module of the package loads.
"""

from . import compiled

compiled.install()
