import { existsSync } from 'node:fs';
import type { NodeConfig } from '../config.js';
import type { Tool } from './front-end.js';
import { NginxRtmp } from './rtmp/nginx.js';

/**
 * The tools front ends run that this machine lacks, each with why (the node runs without the front ends that
 * need it and says so in /metadata's problems), in the order they are said.
 */
export function missingTools(config: NodeConfig): Map<Tool, string> {
  const missing = new Map<Tool, string>();
  if (!existsSync(config.ffmpeg) || !existsSync(config.ffprobe))
    missing.set('ffmpeg', `${config.ffmpeg} or ${config.ffprobe} is missing (Debian package ffmpeg)`);
  const nginx = NginxRtmp.available({ nginx: config.nginx, rtmpModule: config.nginxRtmpModule });
  if (nginx) missing.set('nginx', nginx);
  return missing;
}
