// Output URL rules: allowed schemes, refused forms, and redaction of credentials in URLs and ffmpeg messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkStreamUrl, redactText, redactUrl, urlSecrets } from '../../src/outputs/url.js';
import { buildOutputArgs } from '../../workers/output/ffmpeg-args.js';

test('allowed schemes pass, everything else is refused', () => {
  for (const u of ['srt://127.0.0.1:9000?mode=listener', 'udp://239.0.0.1:1234', 'rtp://h:5004', 'tcp://h:9000?listen=1', 'rtmp://h/live/key', 'rtmps://h/live/key', 'rtsp://h:8554/x']) {
    assert.ok(checkStreamUrl(u).ok, u);
  }
  for (const u of ['file:///etc/passwd', 'pipe:1', 'concat:a|b', '-i x', 'http://x', 'subfile:,,start,0,end,0,,:/etc/passwd', 'udp://h:1 -y', 'UDP:h', '', 'udp://']) {
    assert.not.ok(checkStreamUrl(u).ok, u);
  }
});

test('credentials are replaced by *** in URLs and in ffmpeg messages', () => {
  assert.is(redactUrl('srt://h:9000?mode=caller&passphrase=s3cretpass'), 'srt://h:9000?mode=caller&passphrase=***');
  assert.is(redactUrl('rtmp://h/live/streamkey'), 'rtmp://h/live/***');
  const shown = redactUrl('rtsp://bob:pw@h:8554/x');
  assert.not.match(shown, /bob|pw@/);
  const secrets = urlSecrets('rtmp://bob:pw1234@h/live/key5678');
  const line = redactText('[tcp @ 0x1] Connection to tcp://bob:pw1234@h:1935 failed; rtmp://h/live/key5678', secrets);
  assert.not.match(line, /pw1234|key5678|bob/);
});

test('stream muxer follows the scheme; keyframe every second; x264 zerolatency', () => {
  const base = { kind: 'stream' as const, width: 64, height: 36, fps: 25, bitrateKbps: 1000, secrets: [] };
  const muxer = (url: string) => {
    const { args } = buildOutputArgs('o', { ...base, url }, { width: 64, height: 36 });
    return args[args.indexOf(url) - 3];
  };
  assert.is(muxer('udp://h:1'), 'mpegts');
  assert.is(muxer('srt://h:1'), 'mpegts');
  assert.is(muxer('tcp://h:1'), 'mpegts');
  assert.is(muxer('rtmp://h/a/b'), 'flv');
  assert.is(muxer('rtsp://h/a'), 'rtsp');
  const { args } = buildOutputArgs('o', { ...base, url: 'udp://h:1' }, { width: 64, height: 36 });
  assert.ok(args.join(' ').includes('-preset veryfast -tune zerolatency -g 25'));
  assert.throws(() => buildOutputArgs('o', { ...base, url: 'file:///x' }, { width: 64, height: 36 }));
});

test.run();
