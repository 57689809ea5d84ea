# Tournaments: /shengji tournament replies and refusals (cogs/tournament.py,
# bot/tournament/service.py) and the channel's messages (cogs/cupview.py).
tournament-none-here = There is no tournament in this channel. Create one with `/shengji tournament create`.
tournament-gone = That tournament is over or gone.
tournament-exists = This channel already runs a tournament; use another channel.
tournament-no-preset = There is no preset `{ $preset }`.
tournament-no-name = Give the tournament a name.
tournament-bad-format = Rounds need some minutes, at least 2 must advance, a podium of 1+.
tournament-registration-closed = Registration is closed.
tournament-partner-self = Your partner must be someone else.
tournament-already-registered = You are already registered (team { $team }).
tournament-partner-taken = { $name } is already in a team.
tournament-full = The tournament is full ({ $count ->
    [one] { $count } team
   *[other] { $count } teams
}).
tournament-name-taken = A team is already called { $team }; pick another name.
tournament-not-named = Nobody has named you as their partner.
tournament-partner-confirms = Your partner confirms, not you.
tournament-already-confirmed = Team { $team } is already confirmed.
tournament-not-registered = You are not registered.
tournament-organiser-only = Only the organiser (or Manage Server / Manage Events) can do that.
tournament-started = The tournament has already started.
tournament-bots-count = { $count ->
    [0] The tournament is full: no room for computer teams.
    [one] There is room for 1 computer team only.
   *[other] Between 1 and { $count } computer teams.
}
tournament-too-few = At least two confirmed teams are needed to start.
tournament-same-names = Two teams have the same name; one of them must register again under another.
tournament-not-in-match = You don't play in this match.
tournament-no-match-here = There is no tournament match waiting here.
tournament-no-round = No round is running.
tournament-clock-running = The round's clock is already running.
tournament-round-not-started = The round has not started.
tournament-already-paused = The round is already paused.
tournament-time-already-up = The round's time is already up: its last hands are finishing.
tournament-not-paused = The round is not paused.
tournament-extend-positive = Extend by a positive number of minutes.
tournament-already-checked-in = You are already checked in.
tournament-checked-in = Checked in: good luck!
tournament-no-threads = I can't open a thread for each match here: give me Create Public Threads and Send Messages in Threads, then run `/shengji tournament start` again.
tournament-create-who = Creating a tournament needs Manage Server or Manage Events.
tournament-created = Tournament **{ $name }** created: registration is open.
tournament-partner-bot = Your partner must be a person; computer teams are added by the organiser.
tournament-registered = Team **{ $team }** registered. { $partner } confirms with the **Confirm** button on the registration message.
tournament-withdrew = Team **{ $team }** withdrew.
tournament-confirmed = You're in: team **{ $team }** is confirmed.
tournament-bots-added = Added { $count ->
    [one] { $count } computer team
   *[other] { $count } computer teams
} ({ $level }, marked 🤖, never ranked).
tournament-closed = Registration is closed.
tournament-started-reply = Started: { $count ->
    [one] { $count } team
   *[other] { $count } teams
}, { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
}, draw seed `{ $seed }`.
tournament-cancelled = **{ $name }** is cancelled.
tournament-paused = The round's clock is paused.
tournament-resumed = The round's clock runs again.
tournament-extended = The round has { $minutes ->
    [one] { $minutes } more minute
   *[other] { $minutes } more minutes
}.
tournament-partner-placeholder = Your partner
tournament-partner-question = Who is your partner?
# the channel's messages
tournament-all-open = Every match of the round is open now.
tournament-not-opened = Round { $round }: some matches could not be opened yet. Run `/shengji tournament start` to open the rest.
tournament-cancelled-note = { $name } was cancelled by the organiser.
tournament-round-started = Round { $round } has started.
tournament-draw-seed = 🎲 Draw seed `{ $seed }`: anyone can re-check the draw with `python -m bot tournament --teams { $teams } --seed { $seed }` (its Team 01, Team 02… are the teams in the registration list's order).
tournament-over = 🏆 { $name } is over! Podium: { $places }
tournament-time-up = ⏱️ Round { $round }: time is up. No new hand starts; hands in play finish.
tournament-match-thread = **{ $title }**: the match is played in the thread below.
# a match's thread (its name) and its first message in the tournament's channel
tournament-thread = R{ $round } · { $a } v { $b }
tournament-match-opened = Round { $round }: { $teams }. Team { $team } sits in seats 1 & 3.
# the two teams of a match, in the line above
tournament-versus = { $a } vs { $b }
tournament-check-in = { $players }: press **I'm here** within { $minutes } min, or a computer player takes your seat.
tournament-button-here = I'm here
tournament-team-computer = 🤖 **{ $team }** (computer, { $level })
tournament-level = { $level ->
    [easy] easy
    [expert] expert
   *[normal] normal
}
tournament-team-confirmed = **{ $team }**: { $a } & { $b } ✅
tournament-team-waiting = **{ $team }**: { $a } & { $b } ⏳ waiting for the partner
tournament-reg-open = 🏆 { $name } — registration open
tournament-reg-closed = 🏆 { $name } — registration closed
tournament-no-teams = No teams yet.
tournament-format = Format
tournament-format-line = Rules: { $preset } · rounds of { $minutes } min · top { $advance } match winners advance · podium of { $podium }
tournament-winner-title = Match winner
tournament-winner-rule = A match is won outright by defending A; when the round's time is up (no new hand starts, hands in progress finish) the team at the higher level wins, and at equal levels the team holding the deal. Winners are ranked by level reached, then levels gained, then attacking points per hand, then the draw.
tournament-reg-footer = Register with a partner; they confirm. /shengji tournament register
tournament-button-register = Register
tournament-button-confirm = Confirm
tournament-button-withdraw = Withdraw
tournament-not-started = Not started yet.
tournament-standings = 🏆 { $name } — standings
tournament-podium = Podium: { $places }
tournament-status-finished = Finished
tournament-status-cancelled = cancelled
tournament-status-registration = registration open
tournament-status-round = Round { $round } of { $rounds } · { $minutes } min left
tournament-status-paused = Round { $round } of { $rounds } · { $minutes } min left (paused)
tournament-status-time-up = Round { $round }: time is up, last hands finishing
tournament-result-out = out in round { $round }
tournament-result-playing = playing (round { $round })
tournament-row-advances = advances
tournament-row-won = won
tournament-row-lost = lost
tournament-place = { $place ->
    [1] 🥇 1st
    [2] 🥈 2nd
    [3] 🥉 3rd
   *[other] { $form ->
        [one] { $place }st
        [two] { $place }nd
        [few] { $place }rd
       *[other] { $place }th
    }
}
# A computer team's name, in the server's language when the organiser adds it.
tournament-bot-team = CPU { $n }
tournament-left-out = Left out, not confirmed: { $teams }.
