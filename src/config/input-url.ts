// The URL of a live stream input or an audio `stream` input: it reaches ffmpeg's `-i`, so one rule for both.
import Type from 'typebox';

/** 1 to 4096 characters, no control characters, and never an option or stdin (a leading `-`) or blank start. */
export const InputUrl = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: '^[^\\s\\x00-\\x1f\\x7f-][^\\x00-\\x1f\\x7f]*$',
  description: 'a URL of 1 to 4096 characters without control characters, not starting with "-" or a space',
});
