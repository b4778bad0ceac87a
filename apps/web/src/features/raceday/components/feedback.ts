/** A short beep and a vibration when an entry is saved (a wrong bib: two low beeps). */
let audio: AudioContext | null = null;

export function confirmEntry(ok: boolean) {
  try {
    navigator.vibrate?.(ok ? 60 : [80, 60, 80]);
  } catch {
    /* not supported */
  }
  try {
    audio ??= new AudioContext();
    const beeps = ok ? [0] : [0, 0.18];
    for (const at of beeps) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = ok ? 1320 : 440;
      gain.gain.value = 0.08;
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + at);
      osc.stop(audio.currentTime + at + 0.12);
    }
  } catch {
    /* no audio (tests, locked autoplay): the screen still says it */
  }
}
