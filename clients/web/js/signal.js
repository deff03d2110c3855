// Your turn, heard: a short beep made with WebAudio (no audio file), only for a player who
// turned the sound on; the choice is remembered in the browser's storage (off at first).

/** Did this browser's player turn the sound on? */
export function soundWanted(storage) {
  return storage?.getItem("dominion.sound") === "on";
}

let context = null;

/** A short, soft two-tone beep. */
export function beep() {
  const Audio = window.AudioContext ?? window.webkitAudioContext;
  if (!Audio) return;
  context ??= new Audio();
  context.resume(); // suspended if made before the page's first click (autoplay rules)
  const now = context.currentTime;
  for (const [at, pitch] of [[0, 660], [0.12, 880]]) {
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.frequency.value = pitch;
    volume.gain.setValueAtTime(0.15, now + at);
    volume.gain.exponentialRampToValueAtTime(0.001, now + at + 0.11);
    tone.connect(volume).connect(context.destination);
    tone.start(now + at);
    tone.stop(now + at + 0.12);
  }
}
