// The key prompt: shown when the server wants a key this tab does not have (or refused the one it had).
import { useState } from 'preact/hooks';
import { useLive } from '../store';

export function AuthPrompt(props: { onKey: (key: string) => void }) {
  const error = useLive((s) => s.keyError);
  const [value, setValue] = useState('');
  return (
    <main class="auth">
      <form
        class="panel"
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim() !== '') props.onKey(value.trim());
        }}
      >
        <h1>vjd</h1>
        <p>This server needs its API key. It is kept for this browser tab only.</p>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="current-password"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
          // biome-ignore lint/a11y/noAutofocus: the prompt is the only thing on the page and typing the key is all it asks
          autoFocus
        />
        {error !== '' && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit">Connect</button>
      </form>
    </main>
  );
}
