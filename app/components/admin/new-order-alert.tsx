import { useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { alertTitle } from "#app/features/orders/day-board.ts";
import { usePolling } from "./use-polling.ts";

/** Where this device remembers the staff member's choice. */
export const SOUND_STORAGE_KEY = "capital-grown-admin-sound";
/** While the tab is hidden the page still looks for new orders, less often (browsers slow timers too). */
const HIDDEN_POLL_MS = 30_000;

let audio: AudioContext | null = null;

/** The page's audio, created (or resumed) inside a click or key press, as browsers require. */
function unlockAudio() {
  if (typeof window === "undefined" || !("AudioContext" in window)) return null;
  audio ??= new AudioContext();
  if (audio.state === "suspended") void audio.resume().catch(() => {});
  return audio;
}

/** A short two-tone chime made on the spot with WebAudio: no file, no network. */
function playChime() {
  const context = audio;
  if (context?.state !== "running") return false;
  const start = context.currentTime + 0.01;
  for (const [offset, frequency] of [
    [0, 880],
    [0.16, 1318.5],
  ] as const) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.32);
  }
  return true;
}

/**
 * Tells staff about new orders: `placed` is the count of orders ever placed,
 * read by the page's loader on every reload (the 15 s polling of the incoming list). When it grows,
 * the tab title gets '(N) New orders · …' and, if this device has sound on, a chime plays. The count
 * clears when the staff member is back: a click or a key press on the page, or the tab shown again.
 */
export function NewOrderAlert({ placed }: { placed: number }) {
  const [soundOn, setSoundOn] = useState(false);
  const [fresh, setFresh] = useState(0);
  const seen = useRef(placed);

  // The choice remembered on this device; audio itself waits for the first click or key press.
  useEffect(() => {
    setSoundOn(window.localStorage.getItem(SOUND_STORAGE_KEY) === "on");
  }, []);
  useEffect(() => {
    if (!soundOn) return;
    const unlock = () => unlockAudio();
    window.addEventListener("pointerdown", unlock, { once: true });
    window.addEventListener("keydown", unlock, { once: true });
    return () => {
      window.removeEventListener("pointerdown", unlock);
      window.removeEventListener("keydown", unlock);
    };
  }, [soundOn]);

  useEffect(() => {
    if (placed > seen.current) {
      setFresh((count) => count + (placed - seen.current));
      if (soundOn) playChime();
    }
    seen.current = placed;
  }, [placed, soundOn]);

  // The count in the tab title, over whatever title the page's meta gave it.
  useEffect(() => {
    document.title = alertTitle(document.title, fresh);
  });
  useEffect(
    () => () => {
      document.title = alertTitle(document.title, 0);
    },
    [],
  );

  // Back at the page: the new orders are seen.
  useEffect(() => {
    const clear = () => setFresh(0);
    const shown = () => {
      if (document.visibilityState === "visible") clear();
    };
    window.addEventListener("pointerdown", clear);
    window.addEventListener("keydown", clear);
    document.addEventListener("visibilitychange", shown);
    return () => {
      window.removeEventListener("pointerdown", clear);
      window.removeEventListener("keydown", clear);
      document.removeEventListener("visibilitychange", shown);
    };
  }, []);

  // A hidden tab keeps looking (the visible-tab polling stops while hidden), so the title can tell.
  usePolling(HIDDEN_POLL_MS, "hidden");

  const toggle = () => {
    const next = !soundOn;
    window.localStorage.setItem(SOUND_STORAGE_KEY, next ? "on" : "off");
    setSoundOn(next);
    if (next && unlockAudio()) {
      // A first chime, so the staff member hears what a new order sounds like (and the volume).
      window.setTimeout(() => playChime(), 50);
    }
  };

  return (
    <>
      <Button type="button" variant="outline" onClick={toggle} aria-pressed={soundOn}>
        <Icon name={soundOn ? "volume-2" : "volume-x"} />
        {soundOn ? "Sound on" : "Enable sound"}
      </Button>
      <p role="status" className="sr-only">
        {fresh > 0 ? `${fresh} new ${fresh === 1 ? "order" : "orders"}` : ""}
      </p>
    </>
  );
}
