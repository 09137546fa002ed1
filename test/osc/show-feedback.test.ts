// The show's OSC feedback (src/transports/addresses/show.ts) from GET /show answers, without a server: nothing
// without a show, the leader named from this box or the boxes' states, and malformed members read as nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { feedbackFor } from '../../src/transports/addresses/feedback.js';
import { OSC_TABLE } from '../../src/transports/addresses/table.js';

const values = (data: unknown) => Object.fromEntries(feedbackFor('show', data).map((m) => [m.address, m.args[0]?.value]));

const member = {
  enabled: true,
  box: 'left',
  leader: false,
  broker: { connected: true },
  boxes: [
    { box: 'foh', online: true, leader: true },
    { box: 'left', online: true, leader: false },
    { box: 'right', online: false, leader: false },
  ],
  scheduled: { waiting: [{ id: 's1' }, { id: 's2' }], recent: [] },
};

test('without a show nothing is sent', () => {
  assert.equal(feedbackFor('show', { enabled: false, broker: null, boxes: [], scheduled: { waiting: [], recent: [] } }), []);
  assert.equal(feedbackFor('show', null), []);
});

test('a member: connected, online boxes, the leader from its state, the waiting count', () => {
  assert.equal(values(member), {
    '/vjd/show/connected': 1,
    '/vjd/show/boxes/online': 2,
    '/vjd/show/leader': 'foh',
    '/vjd/show/scheduled': 2,
  });
});

test('the leader names itself; an offline leader is no leader; odd members read as nothing', () => {
  assert.is(values({ ...member, box: 'foh', leader: true, boxes: [] })['/vjd/show/leader'], 'foh');
  const gone = { ...member, boxes: [{ box: 'foh', online: false, leader: true }, null, 7] };
  assert.equal(values(gone), {
    '/vjd/show/connected': 1,
    '/vjd/show/boxes/online': 0,
    '/vjd/show/leader': '',
    '/vjd/show/scheduled': 2,
  });
  assert.equal(values({ enabled: true, broker: 'x', boxes: 'y', scheduled: null }), {
    '/vjd/show/connected': 0,
    '/vjd/show/boxes/online': 0,
    '/vjd/show/leader': '',
    '/vjd/show/scheduled': 0,
  });
});

test('the addresses are feedback only in the table', () => {
  const show = OSC_TABLE.filter((e) => e.address.startsWith('/vjd/show/'));
  assert.equal(
    show.map((e) => e.address),
    ['/vjd/show/connected', '/vjd/show/boxes/online', '/vjd/show/leader', '/vjd/show/scheduled'],
  );
  for (const e of show) {
    assert.is(e.map, undefined);
    assert.is(e.query?.access, 1);
  }
});

test.run();
