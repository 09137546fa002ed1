// Output URL rules: allowed schemes, refused forms, and redaction of credentials in URLs and ffmpeg messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkStreamUrl, redactText, redactUrl, urlSecrets } from '../../src/shared/url.js';
import { buildOutputArgs } from '../../workers/output/ffmpeg-args.js';

test('allowed schemes pass, everything else is refused', () => {
  for (const u of [
    'srt://127.0.0.1:9000?mode=listener',
    'udp://239.0.0.1:1234',
    'rtp://h:5004',
    'tcp://h:9000?listen=1',
    'rtmp://h/live/key',
    'rtmps://h/live/key',
    'rtsp://h:8554/x',
  ]) {
    assert.ok(checkStreamUrl(u).ok, u);
  }
  for (const u of [
    'file:///etc/passwd',
    'pipe:1',
    'concat:a|b',
    '-i x',
    'http://x',
    'subfile:,,start,0,end,0,,:/etc/passwd',
    'udp://h:1 -y',
    'UDP:h',
    '',
    'udp://',
  ]) {
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

test('masking: SRT passphrase in any spelling, SRT stream ids, the RTMP key as the last segment, userinfo', () => {
  const cases: Array<[string, string, string[]]> = [
    ['srt://h:9000?mode=caller&passphrase=s3cretpass1', 'srt://h:9000?mode=caller&passphrase=***', ['s3cretpass1']],
    ['srt://h:9000?PASSPHRASE=Up3rSecret99', 'srt://h:9000?PASSPHRASE=***', ['Up3rSecret99']],
    ['srt://h:9000?PassPhrase=MixedCase777', 'srt://h:9000?PassPhrase=***', ['MixedCase777']],
    ['srt://h:9000?pass%70hrase=EncKeyName55', 'srt://h:9000?pass%70hrase=***', ['EncKeyName55']],
    ['srt://h:9000?%70%61%73%73%70%68%72%61%73%65=AllEncoded1', 'srt://h:9000?%70%61%73%73%70%68%72%61%73%65=***', ['AllEncoded1']],
    ['srt://h:9000?pass%2570hrase=TwiceEnc222', 'srt://h:9000?pass%2570hrase=***', ['TwiceEnc222']],
    ['srt://h:9000?passphrase=%53ecr%65tV4lue', 'srt://h:9000?passphrase=***', ['%53ecr%65tV4lue', 'Secr' + 'etV4lue']],
    ['srt://h:9000?streamid=#!::r=live/x,u=user,s=secret', 'srt://h:9000?streamid=***', ['#!::r=live/x,u=user,s=secret', 's=secret']],
    [
      'srt://h:9000?mode=caller&streamid=%23!::u=bob,s=hunter22&latency=200',
      'srt://h:9000?mode=caller&streamid=***&latency=200',
      ['hunter22', '%23!::u=bob'],
    ],
    ['rtmp://host/app/STREAMKEY', 'rtmp://host/app/***', ['STREAMKEY']],
    ['rtmp://host/app/inst/LastSegKey', 'rtmp://host/app/inst/***', ['LastSegKey']],
    ['rtmps://host:443/live/Key0123/', 'rtmps://host:443/live/***/', ['Key0123']],
    ['rtmp://host/live/K3y?token=T0kenValue', 'rtmp://host/live/***?token=***', ['K3y', 'T0kenValue']],
    ['rtmp://bob:pw1234@host/live/sk999', 'rtmp://***@host/live/***', ['bob', 'pw1234', 'sk999']],
    ['rtsp://al%40ce:p%3Ass@h:8554/x', 'rtsp://***@h:8554/x', ['al%40ce', 'al@ce', 'p%3Ass', 'p:ss']],
  ];
  for (const [url, shown, secrets] of cases) {
    const masked = redactUrl(url);
    assert.is(masked, shown, url);
    for (const secret of secrets) assert.not.ok(masked.includes(secret), `${url} shows ${secret}`);
    // The same secrets, however ffmpeg prints them back in an error line, are hidden there too.
    const found = urlSecrets(url);
    const line = redactText(
      `[srt @ 0x5] Connection to ${url} failed: ${secrets.join(' ')} ${secrets.map(decodeURIComponent).join(' ')}`,
      found,
    );
    for (const secret of secrets) assert.not.ok(line.includes(secret), `error line for ${url} shows ${secret}: ${line}`);
  }
  // Nothing secret: the URL is shown as written.
  for (const url of [
    'udp://239.0.0.1:1234?pkt_size=1316',
    'srt://h:9000?mode=listener&latency=120',
    'rtmp://host/app',
    'rtsp://h:8554/a/b',
  ])
    assert.is(redactUrl(url), url);
});

test('stream muxer follows the scheme; keyframe every second; x264 zerolatency', () => {
  const base = { kind: 'stream' as const, width: 64, height: 36, fps: 25, bitrateKbps: 1000, encoder: 'libx264' as const, secrets: [] };
  const muxer = (url: string) => {
    const { args } = buildOutputArgs('o', { ...base, url }, 'rgba');
    return args[args.indexOf(url) - 3];
  };
  assert.is(muxer('udp://h:1'), 'mpegts');
  assert.is(muxer('srt://h:1'), 'mpegts');
  assert.is(muxer('tcp://h:1'), 'mpegts');
  assert.is(muxer('rtmp://h/a/b'), 'flv');
  assert.is(muxer('rtsp://h/a'), 'rtsp');
  const { args } = buildOutputArgs('o', { ...base, url: 'udp://h:1' }, 'rgba');
  assert.ok(args.join(' ').includes('-preset veryfast -tune zerolatency -g 25'));
  assert.throws(() => buildOutputArgs('o', { ...base, url: 'file:///x' }, 'rgba'));
});

test.run();
