// Tests of notation.js: the board's geometry, FENs, action tokens, turns,
// the texts of scores and clocks, and the record helpers. node --test
// (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  DIAGONALS, FILES, POINTS, RINGS, SEGMENTS, attachmentName, cap, clampInt, commonPrefix, cpText, exportBody, fmtClock,
  isPoint, lastTurn, loadedText, nearestPoint, normalizeFen, parseBoard, parseToken, pointXY, scoreText, splitLines,
  tagValue, takeBackLength, turns, valueText,
} from '../static/notation.js';

const movingFEN = '@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10';

describe('geometry', () => {
  test('the points', () => {
    assert.equal(POINTS.length, 24);
    assert.equal(new Set(POINTS).size, 24);
    assert.deepEqual(POINTS.slice(0, 3), ['d5', 'e5', 'e4']);
    assert.deepEqual(RINGS[2], ['d7', 'g7', 'g4', 'g1', 'd1', 'a1', 'a4', 'a7']);
    assert.equal(FILES, 'abcdefg');
    assert.equal(SEGMENTS.length, 16);
    assert.equal(DIAGONALS.length, 4);
    for (const [a, b] of SEGMENTS.concat(DIAGONALS)) assert.ok(isPoint(a) && isPoint(b), `${a}-${b}`);
    for (const p of ['d4', 'a2', 'h1', 'a', '', 'xa1']) assert.equal(isPoint(p), false, p);
  });

  test('where the points are drawn', () => {
    assert.deepEqual(pointXY('a7'), [0, 0]);
    assert.deepEqual(pointXY('g1'), [6, 6]);
    assert.deepEqual(pointXY('d5'), [3, 2]);
    assert.deepEqual(pointXY('a7', true), [6, 6]);
    assert.deepEqual(pointXY('d5', true), [3, 4]);
  });

  test('every point is the nearest point to itself, the board turned or not', () => {
    for (const flip of [false, true]) {
      for (const p of POINTS) {
        const [x, y] = pointXY(p, flip);
        assert.equal(nearestPoint(x, y, flip), p);
        assert.equal(nearestPoint(x + 0.3, y - 0.3, flip), p);
      }
    }
  });

  test('a drop far from a point is on none', () => {
    assert.equal(nearestPoint(3, 3), null); // the centre
    assert.equal(nearestPoint(0.5, 0), null); // beyond 0.45 of a7
    assert.equal(nearestPoint(0.44, 0), 'a7');
    assert.equal(nearestPoint(0, 0, true), 'g1');
    assert.equal(nearestPoint(1, 1, false, 0.1), 'b6');
  });
});

describe('FEN', () => {
  test('the board of a FEN', () => {
    const b = parseBoard(movingFEN);
    assert.equal(Object.keys(b).length, 24);
    assert.deepEqual([b.d5, b.e5, b.e4, b.c5, b.d6, b.d7, b.g7, b.a7], ['@', '*', 'O', '*', 'O', '*', '*', '*']);
    assert.equal(Object.values(b).filter((c) => c === 'O').length, 9);
    assert.equal(Object.values(b).filter((c) => c === '@').length, 9);
  });

  test('a board written back from what was read is the board', () => {
    const write = (b) => RINGS.map((ring) => ring.map((p) => b[p]).join('')).join('/');
    for (const fen of [movingFEN, '********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1', 'X*******/*@*O****/******** b m r 1 0 1 0 0 1']) {
      assert.equal(write(parseBoard(fen)), fen.split(' ')[0]);
    }
  });

  test('short or missing fields are empty points', () => {
    const b = parseBoard('O@/@');
    assert.deepEqual([b.d5, b.e5, b.e4, b.d6, b.f6, b.d7], ['O', '@', '*', '@', '*', '*']);
    assert.equal(Object.values(parseBoard('')).join(''), '*'.repeat(24));
  });

  test('a pasted FEN is tidied', () => {
    assert.equal(normalizeFen('  ********/********/********  w\tp p\n0 9 '), '********/********/******** w p p 0 9');
    assert.equal(normalizeFen(' \n '), '');
  });
});

describe('action tokens', () => {
  test('each kind', () => {
    assert.deepEqual(parseToken('d6'), { kind: 'place', to: 'd6' });
    assert.deepEqual(parseToken('a1-d1'), { kind: 'move', from: 'a1', to: 'd1' });
    assert.deepEqual(parseToken('g7-a1'), { kind: 'move', from: 'g7', to: 'a1' });
    assert.deepEqual(parseToken('xc5'), { kind: 'remove', at: 'c5' });
  });

  test('what is not a token', () => {
    for (const tok of ['d4', 'x', 'xd4', 'a1-a1', 'a1-', '-d1', 'a1-d1-g1', 'h1', '', 'none', 'D6', undefined, null, 7]) {
      assert.equal(parseToken(tok), null, String(tok));
    }
  });

  test('every token written back from what was read is the token', () => {
    const write = (a) => (a.kind === 'place' ? a.to : a.kind === 'remove' ? `x${a.at}` : `${a.from}-${a.to}`);
    let n = 0;
    for (const p of POINTS) {
      for (const tok of [p, `x${p}`, ...POINTS.filter((q) => q !== p).map((q) => `${p}-${q}`)]) {
        assert.equal(write(parseToken(tok)), tok);
        n++;
      }
    }
    assert.equal(n, 24 * 25);
  });
});

describe('turns', () => {
  const moves = ['a7', 'b4', 'd7', 'f4', 'g7', 'xf4', 'f4', 'g4', 'xa7', 'xd7'];
  const sides = ['white', 'black', 'white', 'black', 'white', 'white', 'black', 'white', 'white', 'white'];

  test('an action and its removals are one turn', () => {
    assert.deepEqual(turns(moves, sides), [[0], [1], [2], [3], [4, 5], [6], [7, 8, 9]]);
    assert.deepEqual(turns([], []), []);
    // A removal by the other side (a set-up position's pending removal)
    // starts a turn of its own.
    assert.deepEqual(turns(['d6', 'xa1'], ['white', 'black']), [[0], [1]]);
    assert.deepEqual(lastTurn(['d6', 'xa1'], ['white', 'black'], 2), ['xa1']);
  });

  test('the last turn', () => {
    assert.deepEqual(lastTurn(moves, sides, 0), []);
    assert.deepEqual(lastTurn(moves, sides, 1), ['a7']);
    assert.deepEqual(lastTurn(moves, sides, 5), ['g7']);
    assert.deepEqual(lastTurn(moves, sides, 6), ['g7', 'xf4']);
    assert.deepEqual(lastTurn(moves, sides, 9), ['g4', 'xa7']);
    assert.deepEqual(lastTurn(moves, sides, 10), ['g4', 'xa7', 'xd7']);
  });

  test('take back', () => {
    const hve = { white: 'human', black: 'engine' };
    const hvh = { white: 'human', black: 'human' };
    const evh = { white: 'engine', black: 'human' };
    const m = ['d6', 'f4', 'g7', 'xf4', 'b4'];
    const s = ['white', 'black', 'white', 'white', 'black'];
    // Against the engine: its answer and the human's turn before it.
    assert.equal(takeBackLength(m, s, hve, true), 2);
    // The human's turn when the engine has not answered.
    assert.equal(takeBackLength(m.slice(0, 4), s.slice(0, 4), hve, true), 2);
    // Both people, or the analysis: one turn.
    assert.equal(takeBackLength(m, s, hvh, false), 4);
    assert.equal(takeBackLength(m.slice(0, 4), s.slice(0, 4), hvh, false), 2);
    // The human plays Black: Black's last turn, and the engine's answer
    // with it when there is one.
    assert.equal(takeBackLength(m, s, evh, true), 4);
    assert.equal(takeBackLength(m.slice(0, 4), s.slice(0, 4), evh, true), 1);
    assert.equal(takeBackLength(['d6'], ['white'], evh, true), 0);
    assert.equal(takeBackLength([], [], hve, true), 0);
  });

  test('common prefix', () => {
    assert.equal(commonPrefix(['a', 'b', 'c'], ['a', 'b', 'd']), 2);
    assert.equal(commonPrefix(['a'], ['a', 'b']), 1);
    assert.equal(commonPrefix([], ['a']), 0);
    assert.equal(commonPrefix(['x'], ['y']), 0);
  });
});

describe('texts', () => {
  test('centipawns', () => {
    assert.deepEqual([12, 9, -3, 0, -137, 28999, 29000, -29000, 31000].map(cpText),
      ['+0.12', '+0.09', '-0.03', '0.00', '-1.37', '+289.99', 'win', 'loss', 'win']);
  });

  test('an info line score', () => {
    assert.equal(scoreText({ scoreKind: 'mate', score: 3 }), 'win in 3');
    assert.equal(scoreText({ scoreKind: 'mate', score: -2 }), 'loss in 2');
    assert.equal(scoreText({ scoreKind: 'cp', score: -137 }), '-1.37');
    assert.equal(scoreText({ scoreKind: 'cp', score: 23 }), '+0.23');
    assert.equal(scoreText({ depth: 3 }), '–');
    assert.equal(scoreText(null), '–');
  });

  test('table values', () => {
    assert.equal(valueText({ k: 'win', n: 3 }), 'win in 3');
    assert.equal(valueText({ k: 'loss', n: 2, dtz: true }), 'loss, 2 to a removal');
    assert.equal(valueText({ k: 'draw' }), 'draw');
    assert.equal(valueText({ k: 'draw', rule: 'repetition' }), 'draw (repetition)');
    assert.equal(valueText({ k: 'draw', rule: 'nmove' }), 'draw (N-move rule)');
  });

  test('clocks', () => {
    assert.deepEqual([0, 9500, 9999, 10000, 59999, 60000, 65000, 300000, 3599000, -5].map(fmtClock),
      ['0:00.0', '0:09.5', '0:09.9', '0:10', '0:59', '1:00', '1:05', '5:00', '59:59', '0:00.0']);
  });

  test('whole numbers in a range', () => {
    assert.equal(clampInt('7', 1, 60, 6), 7);
    assert.equal(clampInt('7.6', 1, 60, 6), 8);
    assert.equal(clampInt('abc', 1, 60, 6), 6);
    assert.equal(clampInt('1e9', 1, 60, 6), 60);
    assert.equal(clampInt('-4', 1, 60, 6), 1);
    assert.equal(clampInt('', 10, 600000, 1000), 10);
    assert.equal(clampInt(undefined, 10, 600000, 1000), 1000);
  });

  test('capitals', () => {
    assert.equal(cap('white'), 'White');
    assert.equal(cap(''), '');
  });
});

describe('records', () => {
  const tags = [{ name: 'Event', value: 'Club' }, { name: 'White', value: 'Ann' }, { name: 'Black', value: 'Bob' }];

  test('tags', () => {
    assert.equal(tagValue(tags, 'White'), 'Ann');
    assert.equal(tagValue(tags, 'Round'), undefined);
  });

  test('the notice of a loaded game', () => {
    assert.equal(loadedText({ tags, games: 2, turnEnd: [1, 2, 3, 4, 6], result: '*' }),
      'Game loaded (the first of 2 games): Ann – Bob, 5 turns, *. Step through it with ← and →.');
    assert.equal(loadedText({ tags: [{ name: 'White', value: '?' }, { name: 'Black', value: 'Bob' }], games: 1, turnEnd: [1], result: '1-0' }),
      'Game loaded: 1 turn, 1-0. Step through it with ← and →.');
  });

  test('the body of an export', () => {
    const game = { variant: 'nine-mens-morris', rules: { PiecesCount: 9 }, startFen: null, moves: ['d6', 'f4'], white: 'Human', black: 'millengine' };
    assert.deepEqual(exportBody(game), { variant: 'nine-mens-morris', startFen: '', moves: ['d6', 'f4'], white: 'Human', black: 'millengine' });
    assert.deepEqual(exportBody({ ...game, variant: '' }),
      { variant: '', rules: { PiecesCount: 9 }, startFen: '', moves: ['d6', 'f4'], white: 'Human', black: 'millengine' });
    assert.deepEqual(exportBody({ ...game, flagged: 'white' }).result, '0-1');
    assert.deepEqual(exportBody({ ...game, flagged: 'black' }).result, '1-0');
    // A game as it was read keeps its record's players, event, round and result.
    const record = { tags, result: '1-0', moves: ['d6', 'f4'], startFen: null };
    assert.deepEqual(exportBody({ ...game, record }), {
      variant: 'nine-mens-morris', startFen: '', moves: ['d6', 'f4'], white: 'Ann', black: 'Bob', event: 'Club', round: '', result: '1-0',
    });
    assert.equal(exportBody({ ...game, record: { ...record, result: '*' } }).result, undefined);
    // Not once it has changed.
    assert.deepEqual(exportBody({ ...game, moves: ['d6'], record }), { variant: 'nine-mens-morris', startFen: '', moves: ['d6'], white: 'Human', black: 'millengine' });
    assert.equal(exportBody({ ...game, startFen: movingFEN, record }).white, 'Human');
  });

  test('the name of a download', () => {
    assert.equal(attachmentName('attachment; filename="millengine-20260101-120000.pgn"', 'x.pgn'), 'millengine-20260101-120000.pgn');
    assert.equal(attachmentName(null, 'millengine.pgn'), 'millengine.pgn');
    assert.equal(attachmentName('attachment', 'millengine.pgn'), 'millengine.pgn');
  });

  test('streamed lines, however the stream is cut', () => {
    const text = '{"t":"progress","done":0,"total":3}\n\n{"t":"progress","done":1,"total":3}\n{"t":"review","review":{}}\n';
    const want = ['{"t":"progress","done":0,"total":3}', '{"t":"progress","done":1,"total":3}', '{"t":"review","review":{}}'];
    assert.deepEqual(splitLines(text), [want, '']);
    assert.deepEqual(splitLines('{"t":"pro'), [[], '{"t":"pro']);
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j += 7) {
        const got = [];
        let buf = '';
        for (const chunk of [text.slice(0, i), text.slice(i, j), text.slice(j)]) {
          let lines;
          [lines, buf] = splitLines(buf + chunk);
          got.push(...lines);
        }
        assert.deepEqual([got, buf], [want, ''], `cut at ${i} and ${j}`);
      }
    }
  });
});
