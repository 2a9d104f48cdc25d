import type { CipherContext, RTCPeerConnection } from 'werift';

/** A DTLS record's content type for an alert, and the alert close_notify: level warning (1), description 0 (RFC 5246 7.2). */
const ALERT = 21;
const CLOSE_NOTIFY = Buffer.from([1, 0]);
/** A DTLS record's header: type, version, epoch, sequence number (48 bits), length (RFC 6347 4.1). */
const HEADER_LENGTH = 13;

type Plaintext = Parameters<CipherContext['encryptPacket']>[0];

/**
 * Says DTLS's close_notify on each transport of the connection: how a WHIP or WHEP endpoint ends a session it
 * terminates (RFC 9725, section 4.x: the client learns it from the DTLS close alert, else only from ICE consent,
 * 30 s later, sending into nothing meanwhile). werift closes without it (its `RTCDtlsTransport.stop` has "todo
 * impl send alert"), so the record is made here as werift makes its application data: encrypted with the session's
 * cipher, in its epoch, with its next record number.
 */
export async function sayDtlsClose(pc: RTCPeerConnection): Promise<void> {
  const sockets = new Set(pc.getTransceivers().map((transceiver) => transceiver.dtlsTransport.dtls));
  for (const socket of sockets) {
    if (!socket?.connected) continue;
    const { dtls, cipher } = socket;
    const header = {
      contentType: ALERT,
      protocolVersion: dtls.version,
      epoch: dtls.epoch,
      sequenceNumber: ++dtls.recordSequenceNumber,
      contentLen: CLOSE_NOTIFY.length,
    };
    // encryptPacket reads the header and the fragment only (werift's DtlsPlaintext is not exported).
    const { recordLayerHeader, fragment } = cipher.encryptPacket({
      recordLayerHeader: header,
      fragment: CLOSE_NOTIFY,
    } as Plaintext);
    const record = Buffer.alloc(HEADER_LENGTH + fragment.length);
    record.writeUInt8(recordLayerHeader.contentType, 0);
    record.writeUInt8(recordLayerHeader.protocolVersion.major, 1);
    record.writeUInt8(recordLayerHeader.protocolVersion.minor, 2);
    record.writeUInt16BE(recordLayerHeader.epoch, 3);
    record.writeUIntBE(recordLayerHeader.sequenceNumber, 5, 6);
    record.writeUInt16BE(fragment.length, 11);
    fragment.copy(record, HEADER_LENGTH);
    await socket.transport.send(record).catch(() => undefined);
  }
}

/**
 * Closes a session's peer connection, first telling the peer when `tellPeer` (the node ends the session, not the
 * peer): its close_notify goes out before the connection's sockets close.
 */
export async function closePeer(pc: RTCPeerConnection, tellPeer: boolean): Promise<void> {
  if (tellPeer) await sayDtlsClose(pc).catch(() => undefined);
  await pc.close().catch(() => undefined);
}
