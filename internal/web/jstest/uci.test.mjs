// Tests of uci.js's parsers and command writers: node --test (TestJSModules
// runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  D_KEYS, bridgeURL, extendPosition, goCommand, norm, parseBestmove, parseBook, parseD, parseDLine, parseEgtb,
  parseEngineLine, parseInfo, parseOption, positionCommand, setOptionCommand,
} from '../static/uci.js';

describe('parseInfo', () => {
  test('every field of a full line', () => {
    assert.deepEqual(parseInfo('info depth 5 seldepth 7 score cp 23 wdl 400 300 300 nodes 1234 nps 5000 tbhits 2 time 12 pv d6 f4'), {
      depth: 5, seldepth: 7, scoreKind: 'cp', score: 23, wdl: [400, 300, 300], nodes: 1234, nps: 5000, tbhits: 2, time: 12,
      pv: ['d6', 'f4'],
    });
  });

  test("millengine's lines", () => {
    assert.deepEqual(parseInfo('info depth 4 seldepth 6 score cp 0 nodes 2050 nps 1830061 hashfull 1 time 1 pv d6 d2 f4 b4'), {
      depth: 4, seldepth: 6, scoreKind: 'cp', score: 0, nodes: 2050, nps: 1830061, hashfull: 1, time: 1, pv: ['d6', 'd2', 'f4', 'b4'],
    });
    assert.deepEqual(parseInfo('info depth 12 score cp 50 nodes 0 nps 0 time 0 pv d6'), {
      depth: 12, scoreKind: 'cp', score: 50, nodes: 0, nps: 0, time: 0, pv: ['d6'],
    });
    assert.deepEqual(parseInfo('info depth 40 seldepth 40 multipv 2 score mate -3 nodes 5 nps 5 hashfull 5 time 5 pv c4-c5 xa1'), {
      depth: 40, seldepth: 40, multipv: 2, scoreKind: 'mate', score: -3, nodes: 5, nps: 5, hashfull: 5, time: 5, pv: ['c4-c5', 'xa1'],
    });
  });

  test('bounds, current moves, words it does not know', () => {
    assert.deepEqual(parseInfo('info depth 9 score cp -15 upperbound nodes 10 pv d6'),
      { depth: 9, scoreKind: 'cp', score: -15, bound: 'upperbound', nodes: 10, pv: ['d6'] });
    assert.deepEqual(parseInfo('info depth 9 score mate 2 lowerbound'), { depth: 9, scoreKind: 'mate', score: 2, bound: 'lowerbound' });
    assert.deepEqual(parseInfo('info depth 3 currmove a1-d1 currmovenumber 4'), { depth: 3, currmove: 'a1-d1', currmovenumber: 4 });
    assert.deepEqual(parseInfo('info depth 2 refutation d6 f4 nodes 3'), { depth: 2, nodes: 3 });
    assert.deepEqual(parseInfo('info'), {});
    assert.deepEqual(parseInfo('  info   depth 1   pv  d6  '), { depth: 1, pv: ['d6'] });
  });

  test('a string runs to the end of the line, spaces kept', () => {
    assert.deepEqual(parseInfo('info depth 3 string hello  world'), { depth: 3, string: 'hello  world' });
    assert.deepEqual(parseInfo('info string'), { string: '' });
  });

  test('malformed lines are refused', () => {
    for (const line of [
      'info depth x', 'info depth', 'info depth 1.5', 'info nodes -', 'info score cp', 'info score centi 5', 'info score cp 1.5',
      'info score', 'info wdl 1 2', 'info wdl 1 2 x', 'info pv', 'info currmove', 'infox depth 1', 'bestmove d6', '',
    ]) {
      assert.equal(parseInfo(line), null, line);
    }
  });
});

describe('parseBestmove', () => {
  test('a move, with and without ponder', () => {
    assert.deepEqual(parseBestmove('bestmove d6-d5 ponder xb4'), { best: 'd6-d5', ponder: 'xb4' });
    assert.deepEqual(parseBestmove('bestmove d6'), { best: 'd6', ponder: null });
    assert.deepEqual(parseBestmove('bestmove none'), { best: 'none', ponder: null });
    assert.deepEqual(parseBestmove('bestmove xa1 '), { best: 'xa1', ponder: null });
  });

  test('malformed lines are refused', () => {
    for (const line of ['bestmove', 'bestmove ', 'bestmove d6 ponder', 'bestmove d6 d5', 'bestmove d6 ponder xb4 f4', 'bestmoves d6', 'info pv d6']) {
      assert.equal(parseBestmove(line), null, line);
    }
  });
});

describe('parseOption', () => {
  const opt = (o) => ({ def: '', min: null, max: null, vars: [], ...o });

  test("millengine's options", () => {
    assert.deepEqual(parseOption('option name Hash type spin default 16 min 1 max 65536'),
      opt({ name: 'Hash', type: 'spin', def: '16', min: 1, max: 65536 }));
    assert.deepEqual(parseOption('option name Contempt type spin default 15 min -100 max 100'),
      opt({ name: 'Contempt', type: 'spin', def: '15', min: -100, max: 100 }));
    assert.deepEqual(parseOption('option name Ponder type check default false'), opt({ name: 'Ponder', type: 'check', def: 'false' }));
    assert.deepEqual(parseOption('option name Book type string default <builtin>'), opt({ name: 'Book', type: 'string', def: '<builtin>' }));
    assert.deepEqual(parseOption('option name Algorithm type combo default mtdf var mtdf var alphabeta var pvs'),
      opt({ name: 'Algorithm', type: 'combo', def: 'mtdf', vars: ['mtdf', 'alphabeta', 'pvs'] }));
    assert.deepEqual(parseOption('option name Variant type combo default nine-mens-morris var nine-mens-morris var morabaraba'),
      opt({ name: 'Variant', type: 'combo', def: 'nine-mens-morris', vars: ['nine-mens-morris', 'morabaraba'] }));
  });

  test('spaces in names and defaults', () => {
    assert.deepEqual(parseOption('option name Clear Hash type button'), opt({ name: 'Clear Hash', type: 'button' }));
    assert.deepEqual(parseOption('option name Move Overhead type spin default 10 min 0 max 5000'),
      opt({ name: 'Move Overhead', type: 'spin', def: '10', min: 0, max: 5000 }));
    assert.deepEqual(parseOption('option name EGTBPath type string default /home/ann/My Tables/egtb'),
      opt({ name: 'EGTBPath', type: 'string', def: '/home/ann/My Tables/egtb' }));
    assert.deepEqual(parseOption('option name Debug Log File type string default <empty>'),
      opt({ name: 'Debug Log File', type: 'string', def: '' }));
    assert.deepEqual(parseOption('option name Note type string default'), opt({ name: 'Note', type: 'string', def: '' }));
    assert.deepEqual(parseOption('option name Style type combo default Very Solid var Very Solid var Risky Play var Normal'),
      opt({ name: 'Style', type: 'combo', def: 'Very Solid', vars: ['Very Solid', 'Risky Play', 'Normal'] }));
  });

  test('malformed lines are refused', () => {
    for (const line of [
      'option name Hash type spin default x min 1 max 2',
      'option name Hash type spin default 16 min 1 max',
      'option name Hash type spin default 5 min 9 max 2',
      'option name Hash type spin min 1 max 2',
      'option name Hash type spin default 16 step 2',
      'option name Hash type spin default 16 default 17',
      'option name Hash type spin',
      'option name X type slider default 1',
      'option name X type check default maybe',
      'option name X type check default true false',
      'option name X type check',
      'option name X type combo default a',
      'option name X type combo var a',
      'option name X type combo default a var',
      'option name X type combo default a var b var',
      'option name X type button default 1',
      'option name X type string',
      'option name type check default true',
      'option Hash type spin default 1',
      'option name Hash',
      'info string option name Hash type button',
    ]) {
      assert.equal(parseOption(line), null, line);
    }
  });

  test('a line written back from what was read is the line', () => {
    // How the UCI protocol writes an option, from parseOption's object.
    const write = (o) => {
      let s = `option name ${o.name} type ${o.type}`;
      if (o.type === 'button') return s;
      s += ` default ${o.type === 'string' && o.def === '' ? '<empty>' : o.def}`;
      if (o.min !== null) s += ` min ${o.min}`;
      if (o.max !== null) s += ` max ${o.max}`;
      for (const v of o.vars) s += ` var ${v}`;
      return s;
    };
    for (const line of [
      'option name Hash type spin default 16 min 1 max 65536',
      'option name Clear Hash type button',
      'option name UCI_AnalyseMode type check default true',
      'option name EGTBPath type string default /root/.cache/millengine/egtb dir',
      'option name Debug Log File type string default <empty>',
      'option name Style type combo default Very Solid var Very Solid var Risky Play',
    ]) {
      assert.equal(write(parseOption(line)), line);
    }
  });
});

describe('parseEngineLine', () => {
  test('what each line is', () => {
    const cases = [
      ['info depth 1 seldepth 1 score cp 74 nodes 25 nps 85239 hashfull 0 time 0 pv d6',
        { type: 'info', info: { depth: 1, seldepth: 1, scoreKind: 'cp', score: 74, nodes: 25, nps: 85239, hashfull: 0, time: 0, pv: ['d6'] } }],
      ['info string egtb win 3 moves a1-d1 win 3 g7-g4 draw c3-d3 loss 2',
        { type: 'string', text: 'egtb win 3 moves a1-d1 win 3 g7-g4 draw c3-d3 loss 2' }],
      ['info string error: position fen: fen field 6 (white in hand) "11": out of range 0..9',
        { type: 'string', text: 'error: position fen: fen field 6 (white in hand) "11": out of range 0..9' }],
      ['info string book depth 14 moves d6 46 e5 11', { type: 'string', text: 'book depth 14 moves d6 46 e5 11' }],
      ['info string  two  spaces ', { type: 'string', text: ' two  spaces ' }],
      ['info string', { type: 'string', text: '' }],
      ['bestmove d6-d5 ponder xb4', { type: 'bestmove', best: 'd6-d5', ponder: 'xb4' }],
      ['bestmove none', { type: 'bestmove', best: 'none', ponder: null }],
      ['option name Clear Hash type button',
        { type: 'option', option: { name: 'Clear Hash', type: 'button', def: '', min: null, max: null, vars: [] } }],
      ['id name millengine dev', { type: 'id', field: 'name', value: 'millengine dev' }],
      ['id author the millengine authors', { type: 'id', field: 'author', value: 'the millengine authors' }],
      ['uciok', { type: 'uciok' }],
      ['readyok', { type: 'readyok' }],
      ['fen: ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1',
        { type: 'other', line: 'fen: ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1' }],
      ['7 *-----------*-----------*', { type: 'other', line: '7 *-----------*-----------*' }],
      ['', { type: 'other', line: '' }],
    ];
    for (const [line, want] of cases) assert.deepEqual(parseEngineLine(line), want, line);
  });

  test('malformed lines of a known kind are bad', () => {
    for (const [line, of] of [
      ['bestmove', 'bestmove'], ['bestmove d6 ponder', 'bestmove'], ['bestmove d6 d5', 'bestmove'],
      ['info depth x', 'info'], ['info score cp', 'info'], ['option name X type check default maybe', 'option'],
      ['option name Hash', 'option'], ['id name', 'id'], ['id version 3', 'id'], ['uciok now', 'uciok'], ['readyok 1', 'readyok'],
    ]) {
      assert.deepEqual(parseEngineLine(line), { type: 'bad', of, line }, line);
    }
  });
});

describe('the answer to d', () => {
  const answer = [
    '7 *-----------*-----------*',
    'fen: ********/********/*******O b p p 1 8 0 9 0 0 0 0 0 0 0 0 1',
    'key: aceac4bf',
    'side: black',
    'phase: placing',
    'action: place',
    'pieces in hand: white 8 black 9',
    'pending removals: white 0 black 1',
    'result: ongoing',
    'legal: a1 a4 b2',
    'book: depth 14 moves d6 46',
  ];

  test('its lines', () => {
    assert.deepEqual(parseDLine('side: black'), ['side', 'black']);
    assert.deepEqual(parseDLine('pieces in hand:  white 8 black 9 '), ['pieces in hand', 'white 8 black 9']);
    assert.deepEqual(parseDLine('legal:'), ['legal', '']);
    for (const line of ['book: depth 14', '7 *---*', ': x', 'fen ********', 'Side: black']) assert.equal(parseDLine(line), null, line);
    assert.equal(D_KEYS.length, 9);
  });

  test('the position', () => {
    const l = {};
    for (const line of answer) {
      const kv = parseDLine(line);
      if (kv) l[kv[0]] = kv[1];
    }
    const d = parseD(l);
    assert.equal(d.fen, '********/********/*******O b p p 1 8 0 9 0 0 0 0 0 0 0 0 1');
    assert.deepEqual({ ...d, board: undefined }, {
      fen: d.fen, side: 'black', phase: 'placing', action: 'place', hand: { white: 8, black: 9 }, pending: { white: 0, black: 1 },
      result: 'ongoing', legal: ['a1', 'a4', 'b2'], board: undefined,
    });
    assert.equal(d.board.a7, 'O');
    assert.equal(Object.values(d.board).filter((c) => c === '*').length, 23);
  });

  test('missing fields take defaults', () => {
    const d = parseD({});
    assert.deepEqual({ ...d, board: undefined }, {
      fen: '', side: 'white', phase: '', action: '', hand: { white: 0, black: 0 }, pending: { white: 0, black: 0 },
      result: 'ongoing', legal: [], board: undefined,
    });
    assert.equal(Object.keys(d.board).length, 24);
  });
});

describe('table and book lines', () => {
  test('parseEgtb', () => {
    assert.deepEqual(parseEgtb('win 3 moves a1-d1 win 3 g7-g4 draw c3-d3 loss 2'), {
      root: { k: 'win', n: 3 },
      moves: [{ tok: 'a1-d1', v: { k: 'win', n: 3 } }, { tok: 'g7-g4', v: { k: 'draw' } }, { tok: 'c3-d3', v: { k: 'loss', n: 2 } }],
    });
    assert.deepEqual(parseEgtb('draw repetition moves d6 draw nmove f4 loss 5 dtz b4 win 2 dtz'), {
      root: { k: 'draw', rule: 'repetition' },
      moves: [{ tok: 'd6', v: { k: 'draw', rule: 'nmove' } }, { tok: 'f4', v: { k: 'loss', n: 5, dtz: true } },
        { tok: 'b4', v: { k: 'win', n: 2, dtz: true } }],
    });
    assert.deepEqual(parseEgtb('loss 0 moves'), { root: { k: 'loss', n: 0 }, moves: [] });
    assert.throws(() => parseEgtb('win moves a1-d1'), { message: 'bad count after win' });
    assert.throws(() => parseEgtb('draw a1-d1 win 3'), { message: '"moves" missing' });
    assert.throws(() => parseEgtb('maybe moves'), { message: 'bad value maybe' });
    assert.throws(() => parseEgtb('win 3 moves a1-d1'), { message: 'bad value undefined' });
  });

  test('parseBook', () => {
    assert.deepEqual(parseBook('depth 14 moves d6 12 f4 9 b4 -3'),
      { depth: 14, moves: [{ tok: 'd6', score: 12 }, { tok: 'f4', score: 9 }, { tok: 'b4', score: -3 }] });
    assert.deepEqual(parseBook('depth 1 moves'), { depth: 1, moves: [] });
    assert.throws(() => parseBook('depth 14 moves d6'), { message: 'bad score after d6' });
    assert.throws(() => parseBook('depth 14 moves d6 1.5'), { message: 'bad score after d6' });
    assert.throws(() => parseBook('moves d6 1'), { message: '"depth" missing' });
    assert.throws(() => parseBook('depth x moves d6 1'), { message: '"depth" missing' });
    assert.throws(() => parseBook('depth 14 d6 1'), { message: '"moves" missing' });
    assert.deepEqual(parseBook('depth 14 moves f4 -36 d2 -41 proven draw keep f4 d2 b4'),
      { depth: 14, moves: [{ tok: 'f4', score: -36 }, { tok: 'd2', score: -41 }], proven: { value: 'draw', keep: ['f4', 'd2', 'b4'] } });
    assert.throws(() => parseBook('depth 14 moves f4 -36 proven drawn keep f4'), { message: 'bad proven value drawn' });
    assert.throws(() => parseBook('depth 14 moves f4 -36 proven draw keep'), { message: '"keep" and its actions missing' });
    assert.throws(() => parseBook('depth 14 moves f4 -36 proven win f4'), { message: '"keep" and its actions missing' });
  });
});

describe('commands', () => {
  const fen = '@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10';

  test('position', () => {
    assert.equal(positionCommand(null, []), 'position startpos');
    assert.equal(positionCommand('', ['d6', 'f4']), 'position startpos moves d6 f4');
    assert.equal(positionCommand(fen, []), `position fen ${fen}`);
    assert.equal(positionCommand(fen, ['c4-c5', 'xa1']), `position fen ${fen} moves c4-c5 xa1`);
  });

  test('a position extended is the position of all the moves', () => {
    const moves = ['d6', 'f4', 'g7', 'xf4'];
    for (const start of [null, fen]) {
      for (let i = 0; i <= moves.length; i++) {
        for (let j = i + 1; j <= moves.length; j++) {
          assert.equal(extendPosition(positionCommand(start, moves.slice(0, i)), moves.slice(i, j)), positionCommand(start, moves.slice(0, j)));
        }
      }
    }
  });

  test('go', () => {
    assert.equal(goCommand({ limit: 'depth', depth: '3' }), 'go depth 3');
    assert.equal(goCommand({ limit: 'depth', depth: '99' }), 'go depth 60');
    assert.equal(goCommand({ limit: 'depth', depth: 'abc' }), 'go depth 6');
    assert.equal(goCommand({ limit: 'movetime', movetime: '1000' }), 'go movetime 1000');
    assert.equal(goCommand({ limit: 'movetime', movetime: '5' }), 'go movetime 10');
    assert.equal(goCommand({ limit: 'movetime', movetime: '' }), 'go movetime 10');
    const clock = { white: 60000, black: 55000, inc: 2000, running: 'white', since: 1000 };
    assert.equal(goCommand({ limit: 'clock', clock, now: 3500.4 }), 'go wtime 57500 btime 55000 winc 2000 binc 2000');
    assert.equal(goCommand({ limit: 'clock', clock: { ...clock, running: null }, now: 99999 }), 'go wtime 60000 btime 55000 winc 2000 binc 2000');
    assert.equal(goCommand({ limit: 'clock', clock: { ...clock, running: 'black' }, now: 70000 }), 'go wtime 60000 btime 0 winc 2000 binc 2000');
    assert.equal(goCommand({ limit: 'clock', clock: null, movetime: '250' }), 'go movetime 250');
  });

  test('setoption', () => {
    assert.equal(setOptionCommand('Clear Hash', null), 'setoption name Clear Hash');
    assert.equal(setOptionCommand('Hash', 32), 'setoption name Hash value 32');
    assert.equal(setOptionCommand('UCI_AnalyseMode', 'true'), 'setoption name UCI_AnalyseMode value true');
  });

  test('the bridge', () => {
    assert.equal(bridgeURL({ protocol: 'http:', host: '127.0.0.1:8080' }, ''), 'ws://127.0.0.1:8080/ws');
    assert.equal(bridgeURL({ protocol: 'https:', host: 'board.example' }, 'a+b/c'), 'wss://board.example/ws?token=a%2Bb%2Fc');
  });

  test('option names fold as the engine folds them', () => {
    assert.equal(norm('Move Overhead'), 'moveoverhead');
    assert.equal(norm('flyPieceCount'), norm('FlyPieceCount'));
    assert.equal(norm(' UCI_AnalyseMode '), 'uci_analysemode');
  });
});
