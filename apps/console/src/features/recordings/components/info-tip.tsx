import infoCircleIcon from 'bootstrap-icons/icons/info-circle.svg?raw';
import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';
import { Icon } from '@/components/ui/icon';

/** An info icon that shows a tooltip on hover or focus; the button is named by `label`. */
export function InfoTip({ label, text }: { label: string; text: string }) {
  const id = useId();
  return (
    <OverlayTrigger placement="top" overlay={<Tooltip id={id}>{text}</Tooltip>}>
      <button type="button" className="btn btn-link btn-sm p-0 ms-1 align-baseline" aria-label={label}>
        <Icon svg={infoCircleIcon} />
      </button>
    </OverlayTrigger>
  );
}

/** A form label followed by its info tip (inside a Form.Group, so the label is bound to its control). */
export function TippedLabel({ children, tip }: { children: string; tip: { label: string; text: string } }) {
  return (
    <div className="d-flex align-items-center">
      <Form.Label className="mb-1">{children}</Form.Label>
      <InfoTip label={tip.label} text={tip.text} />
    </div>
  );
}
