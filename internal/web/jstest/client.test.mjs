// Tests of uci.js's UciClient: the commands it sends, how it matches the
// engine's lines to them, and its states. The engine is played by the
// tests, line by line. node --test (TestJSModules runs them from go test).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { UciClient } from '../static/uci.js';

// tick lets the promises settled so far run their callbacks.
const tick = () => new Promise((resolve) => setImmediate(resolve));

// engine returns a client whose lines and hook calls are recorded, with a
// clock that says 10, 20, 30, … ms.
function engine() {
  const h = { sent: [], infos: [], strings: [], errors: [] };
  let t = 0;
  h.c = new UciClient({
    send: (line) => { h.sent.push(line); return true; },
    now: () => (t += 10),
    onInfo: (info, search) => h.infos.push({ info, kind: search.kind, gen: search.gen }),
    onString: (text) => h.strings.push(text),
    onError: (text) => h.errors.push(text),
  });
  h.feed = (...lines) => lines.forEach((l) => h.c.receive(l));
  // settled reports whether p has settled (after a tick).
  h.settled = async (p) => {
    let done = false;
    p.then(() => { done = true; });
    await tick();
    return done;
  };
  return h;
}

// state is what the client waits for.
const state = (c) => ({ starting: c.starting, positions: c.positions, readies: c.readies, searches: c.searches, stopping: c.stopping });
const IDLE = { starting: false, positions: 0, readies: 0, searches: 0, stopping: false };

describe('uci', () => {
  test('the options and the name, at uciok', async () => {
    const h = engine();
    assert.deepEqual(state(h.c), IDLE);
    const p = h.c.uci();
    assert.deepEqual(h.sent, ['uci']);
    assert.equal(h.c.starting, true);
    h.feed(
      'id name millengine dev',
      'id author the millengine authors',
      'option name Hash type spin default 16 min 1 max 65536',
      'option name Clear Hash type button',
      'option name flyPieceCount type spin default 3 min 3 max 4',
      'option name FlyPieceCount type spin default 3 min 3 max 4',
      'option name Broken type spin default x',
      'option name Variant type combo default nine-mens-morris var nine-mens-morris var morabaraba',
    );
    assert.equal(await h.settled(p), false);
    h.feed('uciok');
    assert.deepEqual(await p, {});
    assert.deepEqual(state(h.c), IDLE);
    assert.equal(h.c.engineName, 'millengine dev');
    assert.deepEqual([...h.c.options.keys()], ['hash', 'clearhash', 'flypiececount', 'variant']);
    // Of two names that fold alike, the first is kept.
    assert.equal(h.c.options.get('flypiececount').name, 'flyPieceCount');
    assert.deepEqual(h.c.options.get('variant').vars, ['nine-mens-morris', 'morabaraba']);
  });

  test('a second uci starts over: the first resolves aborted, the options are the new engine\'s', async () => {
    const h = engine();
    const first = h.c.uci();
    h.feed('option name Hash type spin default 16 min 1 max 64');
    const second = h.c.uci();
    assert.deepEqual(await first, { aborted: true });
    assert.equal(h.c.options.size, 0);
    h.feed('option name Threads type spin default 1 min 1 max 8', 'uciok');
    assert.deepEqual(await second, {});
    assert.deepEqual([...h.c.options.keys()], ['threads']);
    assert.deepEqual(h.sent, ['uci', 'uci']);
  });

  test('uciok with no uci sent changes nothing', () => {
    const h = engine();
    h.feed('uciok', 'readyok', 'bestmove d6');
    assert.deepEqual(state(h.c), IDLE);
    assert.deepEqual(h.sent, []);
  });
});

describe('commands', () => {
  test('a command is answered at readyok, with the errors it caused', async () => {
    const h = engine();
    const p = h.c.command('setoption name Hash value 999999');
    assert.deepEqual(h.sent, ['setoption name Hash value 999999', 'isready']);
    assert.equal(h.c.readies, 1);
    h.feed('info string error: setoption: Hash 999999 is out of range 1..256');
    assert.equal(await h.settled(p), false);
    h.feed('readyok');
    assert.deepEqual(await p, { errors: ['error: setoption: Hash 999999 is out of range 1..256'] });
    assert.deepEqual(state(h.c), IDLE);
    assert.equal(h.c.collectors.size, 0);
    assert.deepEqual(h.errors, []);
  });

  test('an accepted command has no errors', async () => {
    const h = engine();
    const p = h.c.command('setoption name Threads value 2');
    h.feed('readyok');
    assert.deepEqual(await p, { errors: [] });
  });

  test('commands are answered in order', async () => {
    const h = engine();
    const a = h.c.command('setoption name A value 1');
    const b = h.c.command('setoption name B value 2');
    assert.equal(h.c.readies, 2);
    h.feed('readyok');
    assert.deepEqual(await a, { errors: [] });
    assert.equal(await h.settled(b), false);
    h.feed('info string error: B: no such option', 'readyok');
    assert.deepEqual(await b, { errors: ['error: B: no such option'] });
  });

  test('isready alone', async () => {
    const h = engine();
    const p = h.c.isready();
    assert.deepEqual(h.sent, ['isready']);
    h.feed('readyok');
    assert.deepEqual(await p, { errors: [] });
  });

  test('an engine error nobody waits for goes to onError', () => {
    const h = engine();
    h.feed('info string error: the tables are damaged');
    assert.deepEqual(h.errors, ['error: the tables are damaged']);
  });

  test('a refusal of the bridge goes to the commands waiting', async () => {
    const h = engine();
    assert.equal(h.c.collectRefusal('refused: setoption of a string option'), false);
    const p = h.c.command('setoption name Book value /etc/passwd');
    assert.equal(h.c.collectRefusal('too many messages (more than 200 a second): 3 dropped'), false);
    assert.equal(h.c.collectRefusal('refused: setoption of a string option'), true);
    h.feed('readyok');
    assert.deepEqual(await p, { errors: ['server: refused: setoption of a string option'] });
  });
});

describe('position', () => {
  const answer = [
    '7 *-----------*-----------*',
    '  |           |           |',
    'fen: ***O****/********/******** b p p 1 8 0 9 0 0 0 0 0 0 0 0 1',
    'key: 1234abcd',
    'side: black',
    'phase: placing',
    'action: place',
    'pieces in hand: white 8 black 9',
    'pending removals: white 0 black 0',
    'result: ongoing',
    'legal: a1 a4',
    'book: depth 14 moves d6 46',
  ];

  test('the position is answered with the engine\'s d', async () => {
    const h = engine();
    const p = h.c.position('position startpos moves e3');
    assert.deepEqual(h.sent, ['position startpos moves e3', 'd']);
    assert.equal(h.c.positions, 1);
    h.feed(...answer.slice(0, 9));
    assert.equal(await h.settled(p), false);
    h.feed(...answer.slice(9));
    const r = await p;
    assert.deepEqual(r.errors, []);
    assert.deepEqual({ ...r.d, board: undefined }, {
      fen: '***O****/********/******** b p p 1 8 0 9 0 0 0 0 0 0 0 0 1', side: 'black', phase: 'placing', action: 'place',
      hand: { white: 8, black: 9 }, pending: { white: 0, black: 0 }, result: 'ongoing', legal: ['a1', 'a4'], board: undefined,
    });
    assert.equal(r.d.board.e3, 'O');
    assert.deepEqual(state(h.c), IDLE);
  });

  test('a refused position carries the engine\'s error', async () => {
    const h = engine();
    const p = h.c.position('position fen nonsense');
    h.feed('info string error: position fen: a position string has 17 fields, got 1', ...answer);
    const r = await p;
    assert.deepEqual(r.errors, ['error: position fen: a position string has 17 fields, got 1']);
    assert.equal(r.d.side, 'black');
  });

  test('lines of d nobody asked for are ignored', async () => {
    const h = engine();
    h.feed(...answer);
    const p = h.c.position('position startpos');
    h.feed('legal: d6 f4');
    assert.deepEqual((await p).d.legal, ['d6', 'f4']);
  });
});

describe('search', () => {
  test('info goes to the running search; bestmove answers it', async () => {
    const h = engine();
    const p = h.c.go('go depth 2', 'move', 7);
    assert.deepEqual(h.sent, ['go depth 2']);
    assert.equal(h.c.searches, 1);
    h.feed(
      'info depth 1 seldepth 1 score cp 74 nodes 25 nps 85239 hashfull 0 time 0 pv d6',
      'info depth 2 currmove f4 currmovenumber 2',
      'info depth 2 seldepth 2 score cp 5 wdl 400 300 300 nodes 97 nps 280501 hashfull 0 time 3 pv d6 f4',
      'info depth 3 currmove d6 currmovenumber 1',
      'info depth x',
    );
    assert.equal(await h.settled(p), false);
    h.feed('bestmove d6 ponder f4');
    const last = { depth: 2, seldepth: 2, scoreKind: 'cp', score: 5, wdl: [400, 300, 300], nodes: 97, nps: 280501, hashfull: 0, time: 3, pv: ['d6', 'f4'] };
    assert.deepEqual(await p, { best: 'd6', ponder: 'f4', info: last, at: 20 });
    assert.deepEqual(h.infos.map((x) => [x.info.depth, x.kind, x.gen]), [[1, 'move', 7], [2, 'move', 7], [2, 'move', 7], [3, 'move', 7]]);
    assert.deepEqual(h.c.goQ, []);
    assert.deepEqual(state(h.c), IDLE);
  });

  test('info with no search running goes nowhere', () => {
    const h = engine();
    h.feed('info depth 1 score cp 3 pv d6');
    assert.deepEqual(h.infos, []);
  });

  test('strings go to onString, errors to the commands waiting', async () => {
    const h = engine();
    const p = h.c.go('go movetime 500', 'hint', 1);
    h.feed('info string book depth 14 moves d6 46 e5 11', 'info string egtb: no tables in /x', 'info string');
    assert.deepEqual(h.strings, ['book depth 14 moves d6 46 e5 11', 'egtb: no tables in /x', '']);
    h.feed('bestmove d6');
    assert.deepEqual(await p, { best: 'd6', ponder: null, info: null, at: 20 });
  });

  test('stop: one stop for the searches running; idle waits for their answers', async () => {
    const h = engine();
    const a = h.c.go('go infinite', 'analysis', 1);
    assert.equal(h.c.stopping, false);
    const idle = h.c.idle();
    assert.deepEqual(h.sent, ['go infinite', 'stop']);
    assert.equal(h.c.stopping, true);
    h.c.stopSearch();
    assert.deepEqual(h.sent, ['go infinite', 'stop']);
    assert.equal(await h.settled(idle), false);
    h.feed('info depth 9 score cp 1 pv d6', 'bestmove d6');
    assert.equal((await a).best, 'd6');
    assert.equal(await h.settled(idle), true);
    assert.deepEqual(state(h.c), IDLE);
  });

  test('idle with no search resolves at once and sends nothing', async () => {
    const h = engine();
    assert.equal(await h.settled(h.c.idle()), true);
    assert.deepEqual(h.sent, []);
  });

  test('a search started after a stop is stopped by the next stop', async () => {
    const h = engine();
    h.c.go('go infinite', 'analysis', 1);
    h.c.stopSearch();
    const b = h.c.go('go depth 3', 'move', 2);
    assert.equal(h.c.stopping, false);
    h.c.stopSearch();
    assert.deepEqual(h.sent, ['go infinite', 'stop', 'go depth 3', 'stop']);
    h.feed('bestmove d6', 'bestmove f4');
    assert.equal((await b).best, 'f4');
  });

  test('bestmoves answer the searches in order', async () => {
    const h = engine();
    const a = h.c.go('go depth 1', 'move', 1);
    const b = h.c.go('go depth 1', 'move', 2);
    h.feed('info depth 1 score cp 1 pv a7');
    h.feed('bestmove a7');
    h.feed('info depth 1 score cp 2 pv g7');
    h.feed('bestmove g7');
    assert.deepEqual([(await a).best, (await a).info.pv, (await b).best, (await b).info.pv], ['a7', ['a7'], 'g7', ['g7']]);
    assert.deepEqual(h.infos.map((x) => x.gen), [1, 2]);
  });

  test('a bestmove the client cannot read still ends the search', async () => {
    const h = engine();
    const p = h.c.go('go depth 1', 'move', 1);
    h.feed('bestmove');
    assert.equal((await p).best, 'none');
    const q = h.c.go('go depth 1', 'move', 2);
    h.feed('bestmove d6 ponder');
    assert.deepEqual(await q, { best: 'none', ponder: null, info: null, at: 40 });
  });
});

describe('abort', () => {
  test('everything waiting resolves aborted; late answers change nothing', async () => {
    const h = engine();
    const u = h.c.uci();
    const cmd = h.c.command('setoption name Hash value 32');
    const pos = h.c.position('position startpos');
    const go = h.c.go('go infinite', 'analysis', 3);
    const idle = h.c.idle();
    h.feed('info string error: something');
    assert.deepEqual(state(h.c), { starting: true, positions: 1, readies: 1, searches: 1, stopping: true });
    h.c.abortAll();
    assert.deepEqual(await u, { aborted: true });
    assert.deepEqual(await cmd, { aborted: true, errors: ['error: something'] });
    assert.deepEqual(await pos, { aborted: true, errors: ['error: something'] });
    assert.deepEqual(await go, { aborted: true, errors: [] });
    assert.equal(await h.settled(idle), true);
    assert.deepEqual(state(h.c), IDLE);
    assert.equal(h.c.collectors.size, 0);
    h.feed('readyok', 'legal: d6', 'bestmove d6', 'uciok', 'info string error: late');
    assert.deepEqual(state(h.c), IDLE);
    assert.deepEqual(h.errors, ['error: late']);
  });

  test('a command sent with no connection waits until the abort', async () => {
    const sent = [];
    const c = new UciClient({ send: (line) => { sent.push(line); return false; } });
    const p = c.command('setoption name Threads value 2');
    assert.equal(c.readies, 1);
    c.abortAll();
    assert.deepEqual(await p, { aborted: true, errors: [] });
    assert.deepEqual(sent, ['setoption name Threads value 2', 'isready']);
  });
});
