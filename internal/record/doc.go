// Package record reads and writes mill game records: Sanmill's dialect of PGN
// (Portable Game Notation), PlayOK's numeric move lists, and bare position
// strings, and it connects them to the engine. Replay turns a record's main
// line into engine moves and positions and checks every move with the
// engine's own move generator; Turns and FromEngine go the other way, from an
// engine game to a record. Games played or analysed by the engine can thus be
// saved, shared with Sanmill (the reference implementation of the rules this
// engine follows) and loaded back, and games from Sanmill or PlayOK can be
// fed to the engine.
//
// # The dialect
//
// The format is the one Sanmill's app writes and reads (its exporter is
// GameRecorder.moveHistoryText with ImportService.addTagPairs; its reader is
// pgn.dart with ImportService). Where it differs from chess PGN:
//
//   - A move token is one turn of a mill game: a placement "d6" or a slide or
//     fly "d6-d5", with the removals its mills earn appended: "d6-d5xd7",
//     "d6xd7" (a placement that closes a mill), "d6-d5xd7xa1" (two removals
//     where the rules give two). A token may also be removals alone, "xd7":
//     the first turn from a set-up position where a removal is pending, or a
//     removal that Sanmill separates from its move by an annotation
//     ("d6!xc3" reads as the turns "d6" with NAG 1 and "xc3"; it is written
//     back as "d6! xc3"). "p" is a pass: Sanmill's reader accepts it and
//     skips it, its writer never writes it, and neither does Turns. Squares
//     are written in lower case and read in any case.
//   - The engine plays a mill-closing action and its removal as two moves
//     ("d6-d5", then "xd7"); a Turn holds both, and Turn.Actions gives the
//     engine moves.
//   - Move numbers count pairs of turns from 1 even when a FEN tag sets up a
//     position (the FEN's full-move field is not used): "1." before White's
//     turn, "1..." before Black's after a break (game start, comment,
//     variation). A removal-only token continues the turn before it and gets
//     no number, unless it opens the game. As in Sanmill's reader,
//     numbers are checked for shape, not value, since Sanmill's own numbering
//     after set-up positions and around removals is not regular.
//   - [PlyCount] counts engine actions, removals included (Sanmill's
//     mainlineMoves), not turns. [Variant] holds Sanmill's fixed English
//     variant name ("Nine Men's Morris", "Morabaraba", … or "Custom"); see
//     VariantPreset. [FEN] holds a mill position string (rules.md §5) and
//     comes with [SetUp "1"]; Sanmill's current FENs number the points 0–23
//     and end with "ids:nodes". Sanmill writes its dates unpadded
//     ("2026.1.27") and its tags in the order Event, Site, Date, Round,
//     White, Black, Result, Variant, PlyCount, FEN, SetUp. Tags are kept as
//     read, in their order; a tag may appear once.
//   - Sanmill ends tag lines with CRLF and move lines with LF, and its
//     clipboard export leaves out the tags (the FEN and SetUp tags of a
//     set-up position excepted) and, for a set-up position without moves,
//     the termination marker. Both line ends are read; LF is written.
//
// The rest is PGN: several games per file, tag pairs with \" and \\ escapes,
// {comments} and ;comments (kept, without surrounding white space), % escape
// lines (skipped), nested (variations) (kept; a variation is an alternative
// to the turn before it), NAGs as $n (0–255) or as the suffixes !, ?, !!, ??,
// !? and ?! (NAGs 1–6), and the termination markers 1-0, 0-1, 1/2-1/2 and *.
//
// # Strictness
//
// Reading is syntactic with token-shape checks: every token must be a tag,
// a comment, a move number, a well-formed turn on points of the board, a NAG,
// a parenthesis or a termination marker, and a bad one is an *Error naming
// the game (1-based), the ply, the line and the column (in characters). The
// ply is the 1-based number of the move token within its line, variations
// continuing the count of the line they branch from; an error in another
// token (a NAG, a comment, a parenthesis) names the ply of the move before
// it, and one before any move names none. A game's Result tag, if any, must
// agree with its termination marker; a game without a marker (Sanmill's
// set-up export) takes the Result tag's value, or "*". Nothing is returned
// with an error. Whether the moves are legal is Replay's business, since it
// depends on the rules.
//
// Writing (Write, Marshal) checks the games first and writes nothing if one
// is invalid; it wraps the movetext at 80 columns (a single longer comment
// excepted) and writes what reading gives back exactly: Parse, Marshal and
// Parse again give Equal games.
//
// # PlayOK
//
// PlayOK numbers the 24 points 1–24 left to right, top to bottom (1 = a7,
// 24 = g1), as Sanmill's PlayOK import does; its tokens are "12", "12-13",
// "x12" and "12-13x5". ParsePlayOK reads such records into the same Turns
// Parse gives for Sanmill's notation; Import recognises PlayOK records, bare
// position strings and Sanmill PGN.
package record
