import {
  AUDIO_PRESETS,
  type AudioTrack,
  isVideoTrack,
  NEW_AUDIO_TRACK,
  NEW_VIDEO_TRACK,
  optionLabel,
  type TranscodeConfig,
  type TranscodeTrack,
  VIDEO_PRESETS,
  type VideoTrack,
} from '@streamcloud/contract';
import pencilIcon from 'bootstrap-icons/icons/pencil.svg?raw';
import trashIcon from 'bootstrap-icons/icons/trash.svg?raw';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Table from 'react-bootstrap/Table';
import { type Column, ColumnHeaders } from '@/components/ui/column-headers';
import { Icon } from '@/components/ui/icon';
import { CollapsibleCard } from './collapsible-card';
import { AudioTrackModal, VideoTrackModal } from './track-modal';

type Kind = 'video' | 'audio';
type TrackOf<K extends Kind> = K extends 'video' ? VideoTrack : AudioTrack;

interface Editing<T> {
  /** The track's place in the whole track list; null when adding. */
  index: number | null;
  track: T;
}

const VIDEO_COLUMNS: Column[] = ['Codec', 'Size', 'Frame rate', 'Bitrate', 'Settings', { hidden: 'Actions' }];
const AUDIO_COLUMNS: Column[] = ['Codec', 'Rate', 'Channels', 'Bitrate', { hidden: 'Actions' }];

const isKind = (kind: Kind, track: TranscodeTrack) => (kind === 'video') === isVideoTrack(track);

function videoDetails(track: VideoTrack): string {
  if (track.type === 'H264') {
    const { speedPreset, tune, keyIntMax } = track.settings;
    return `${optionLabel(speedPreset)}, ${optionLabel(tune)}, key interval ${keyIntMax}`;
  }
  return `key distance ${track.settings.keyMaxDist}`;
}

export interface TracksCardProps {
  kind: Kind;
  config: TranscodeConfig;
  disabled: boolean;
  onChange: (config: TranscodeConfig) => void;
}

/** The video or the audio tracks of the ladder: a table, add (blank or from a preset), edit and remove. */
export function TracksCard({ kind, config, disabled, onChange }: TracksCardProps) {
  const [editing, setEditing] = useState<Editing<TrackOf<typeof kind>> | null>(null);
  const noun = kind === 'video' ? 'video track' : 'audio track';
  const rows = config.tracks.map((track, index) => ({ track, index })).filter(({ track }) => isKind(kind, track));
  const presets = kind === 'video' ? VIDEO_PRESETS : AUDIO_PRESETS;

  const setTracks = (tracks: TranscodeTrack[]) => onChange({ ...config, tracks });
  const add = (track: TranscodeTrack) => setTracks([...config.tracks, track]);
  const save = (track: TranscodeTrack) => {
    if (!editing) return;
    if (editing.index === null) add(track);
    else setTracks(config.tracks.map((item, index) => (index === editing.index ? track : item)));
    setEditing(null);
  };
  const remove = (at: number) => setTracks(config.tracks.filter((_, index) => index !== at));

  const actions = (
    <div className="d-flex gap-2">
      <Button
        size="sm"
        variant="outline-primary"
        disabled={disabled}
        onClick={() => setEditing({ index: null, track: kind === 'video' ? NEW_VIDEO_TRACK : NEW_AUDIO_TRACK })}
      >
        {kind === 'video' ? 'Add video track' : 'Add audio track'}
      </Button>
      <Dropdown>
        <Dropdown.Toggle size="sm" variant="outline-secondary" disabled={disabled} id={`${kind}-presets`}>
          {kind === 'video' ? 'Add video preset' : 'Add audio preset'}
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {presets.map((preset) => (
            <Dropdown.Item as="button" key={preset.label} onClick={() => add(preset.track)}>
              {preset.label}
            </Dropdown.Item>
          ))}
        </Dropdown.Menu>
      </Dropdown>
    </div>
  );

  return (
    <CollapsibleCard title={kind === 'video' ? 'Video tracks' : 'Audio tracks'} actions={actions}>
      {rows.length === 0 ? (
        <p className="text-secondary mb-0">{kind === 'video' ? 'No video tracks.' : 'No audio tracks.'}</p>
      ) : (
        <Table responsive size="sm" className="mb-0 align-middle">
          <ColumnHeaders columns={kind === 'video' ? VIDEO_COLUMNS : AUDIO_COLUMNS} />
          <tbody>
            {rows.map(({ track, index }, position) => {
              const name = `${noun} ${position + 1}`;
              return (
                <tr key={index} aria-label={`${optionLabel(noun)} ${position + 1}`}>
                  {isVideoTrack(track) ? (
                    <>
                      <td>{track.type}</td>
                      <td>
                        {track.width !== undefined && track.height !== undefined
                          ? `${track.width}x${track.height}`
                          : 'Source'}
                      </td>
                      <td>{track.framerate} fps</td>
                      <td>{track.settings.bitrate} kbps</td>
                      <td>{videoDetails(track)}</td>
                    </>
                  ) : (
                    <>
                      <td>{track.type}</td>
                      <td>{track.rate} Hz</td>
                      <td>{track.channels}</td>
                      <td>{track.settings.bitrate} kbps</td>
                    </>
                  )}
                  <td className="text-end text-nowrap">
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      className="me-2"
                      disabled={disabled}
                      aria-label={`Edit ${name}`}
                      onClick={() => setEditing({ index, track: track as TrackOf<typeof kind> })}
                    >
                      <Icon svg={pencilIcon} /> Edit
                    </Button>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={disabled}
                      aria-label={`Remove ${name}`}
                      onClick={() => remove(index)}
                    >
                      <Icon svg={trashIcon} /> Remove
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      {kind === 'video' ? (
        <VideoTrackModal
          track={editing ? (editing.track as VideoTrack) : null}
          mode={editing?.index === null ? 'add' : 'edit'}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <AudioTrackModal
          track={editing ? (editing.track as AudioTrack) : null}
          mode={editing?.index === null ? 'add' : 'edit'}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      )}
    </CollapsibleCard>
  );
}
