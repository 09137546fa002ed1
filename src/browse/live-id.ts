// Browse node ids of live inputs are `liveInput:<deviceId>`; every place that makes or accepts one goes through here.

const PREFIX = 'liveInput:';

/** The browse node id of a live input. */
export function liveBrowseId(deviceId: string): string {
  return `${PREFIX}${deviceId}`;
}

/** The device id an id names: a `liveInput:<id>` browse id loses its prefix, anything else is returned as is. */
export function deviceIdOf(id: string): string {
  return id.startsWith(PREFIX) ? id.slice(PREFIX.length) : id;
}
