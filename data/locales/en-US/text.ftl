# Names of things shared by the panels, the table and the records (cogs/text.py).
text-team-a = Team A (seats 1 & 3)
text-team-b = Team B (seats 2 & 4)
text-pair = { $first } & { $second }
text-trump-unset = not set yet
text-trump = { $suit } · level { $level }
text-bid = { $kind ->
    [reinforce] { $name } reinforces with { $cards }
    [overcall] { $name } overcalls with { $cards } for { $suit }
   *[declare] { $name } shows { $cards } for { $suit }
}
text-bid-no-trump = No trump { $cards }
text-bid-declare = Declare { $cards }
text-bid-reinforce = Reinforce { $cards }
text-bid-overcall = Overcall { $cards }
text-result = { $winner ->
    [dealer] The dealer's team goes up { $gained }{ $gained ->
        [3] {" "}(大光)
        [2] {" "}(小光)
       *[other] {""}
    }
    [draw] A draw: nobody goes up
   *[attackers] { $gained ->
        [0] The attackers take the deal (上台)
       *[other] The attackers take the deal and go up { $gained }
    }
}
text-result-line = { $result }.
