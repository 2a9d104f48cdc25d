import { useEffect, useState } from 'react';

/** How often the level is read: often enough to follow speech, rarely enough to keep React idle. */
const READ_MS = 100;

/**
 * The microphone's level (0 to 1, the RMS of the waveform) from a WebAudio AnalyserNode on the stream's
 * audio; 0 without audio or where the browser has no AudioContext.
 */
export function useMicrophoneLevel(media: MediaStream | null): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    setLevel(0);
    if (!media || media.getAudioTracks().length === 0 || typeof AudioContext === 'undefined') return;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(media).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      setLevel(Math.min(1, Math.sqrt(sum / samples.length)));
    }, READ_MS);
    return () => {
      clearInterval(timer);
      void context.close();
    };
  }, [media]);
  return level;
}
