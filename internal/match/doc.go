// Package match plays engine-against-engine matches and round-robins for mill
// UCI engines, as the millmatch command does.
//
// The pieces, one file each:
//
//   - engine.go: a UCI engine process (handshake, options, the variant,
//     ucinewgame, position and go with a deadline, info and bestmove lines in
//     both the plain UCI and the Sanmill shape, quit and kill);
//   - referee.go: one game, refereed with the project's own position and
//     movegen: every token is checked, the game ends by the rules or by the
//     ply cap, and faults lose the game;
//   - timecontrol.go: a fixed time per action or a clock with increment;
//   - openings.go: opening files and seeded random openings;
//   - tournament.go: the schedule (each opening twice, colours swapped),
//     parallel workers with their own engine processes that are restarted
//     after a fault, the SPRT stop, the JSON-lines records;
//   - stats.go: score, Elo with its 95 % interval, LOS and the SPRT;
//   - report.go: the live lines and the final tables;
//   - setup.go: a match as millmatch's command line gives it, checked
//     into a Config, with its output files and its header.
package match
