import { useId } from 'react';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';

/** An info icon that shows a tooltip on hover or focus; the button is named by `label`. */
export function InfoTip({ label, text }: { label: string; text: string }) {
  const id = useId();
  return (
    <OverlayTrigger placement="top" overlay={<Tooltip id={id}>{text}</Tooltip>}>
      <button type="button" className="btn btn-link btn-sm p-0 ms-1 align-baseline" aria-label={label}>
        <i className="bi bi-info-circle" aria-hidden="true" />
      </button>
    </OverlayTrigger>
  );
}
