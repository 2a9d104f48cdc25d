/** The studio's picture sizes (16:9), by their height. */
export const RESOLUTIONS = [
  { label: '360p', width: 640, height: 360 },
  { label: '720p', width: 1280, height: 720 },
  { label: '1080p', width: 1920, height: 1080 },
] as const;

export type Resolution = (typeof RESOLUTIONS)[number]['label'];

/** Video bitrate caps offered, in bits per second. */
export const BITRATES = [
  { label: '500 kbps', value: 500_000 },
  { label: '1.5 Mbps', value: 1_500_000 },
  { label: '3 Mbps', value: 3_000_000 },
  { label: '6 Mbps', value: 6_000_000 },
] as const;

export type Source = 'camera' | 'screen';

export interface MediaChoice {
  source: Source;
  /** A camera's deviceId; the browser's default when null. */
  cameraId: string | null;
  microphoneId: string | null;
  resolution: Resolution;
}

export const MEDIA_ERRORS = {
  denied:
    'The browser was not allowed to use the camera or microphone. Allow them for this site in the browser’s settings, then try again.',
  screenDenied: 'Screen sharing was not allowed. Choose a screen or window to share, or go back to the camera.',
  missing: 'No camera or microphone was found. Connect one, then try again.',
  other: (reason: string) => `The camera or microphone could not be opened: ${reason}`,
} as const;

/** The in-page sentence for a getUserMedia/getDisplayMedia failure. */
export function mediaErrorMessage(error: unknown, source: Source): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError') return source === 'screen' ? MEDIA_ERRORS.screenDenied : MEDIA_ERRORS.denied;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return MEDIA_ERRORS.missing;
  return MEDIA_ERRORS.other(error instanceof Error ? error.message : String(error));
}

const device = (id: string | null): MediaTrackConstraints => (id ? { deviceId: { exact: id } } : {});

/** The camera (or a shared screen) at the chosen size, and the chosen microphone, as one stream. */
export async function openMedia(choice: MediaChoice): Promise<MediaStream> {
  const size = RESOLUTIONS.find((resolution) => resolution.label === choice.resolution) ?? RESOLUTIONS[0];
  const frame = { width: { ideal: size.width }, height: { ideal: size.height } };
  if (choice.source === 'camera') {
    return navigator.mediaDevices.getUserMedia({
      video: { ...device(choice.cameraId), ...frame },
      audio: device(choice.microphoneId),
    });
  }
  const screen = await navigator.mediaDevices.getDisplayMedia({ video: frame, audio: false });
  try {
    const microphone = await navigator.mediaDevices.getUserMedia({ audio: device(choice.microphoneId) });
    return new MediaStream([...screen.getVideoTracks(), ...microphone.getAudioTracks()]);
  } catch (error) {
    stopTracks(screen);
    throw error;
  }
}

export function stopTracks(media: MediaStream | null): void {
  for (const track of media?.getTracks() ?? []) track.stop();
}

export interface Devices {
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
}

/** Cameras and microphones (named once the page may use them, so listed after the first open). */
export async function listDevices(): Promise<Devices> {
  const all = await navigator.mediaDevices.enumerateDevices();
  return {
    cameras: all.filter((entry) => entry.kind === 'videoinput'),
    microphones: all.filter((entry) => entry.kind === 'audioinput'),
  };
}
