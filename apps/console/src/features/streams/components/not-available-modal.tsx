import Modal from 'react-bootstrap/Modal';

/** An honest notice for an action whose feature comes with a later release. */
export function NotAvailableModal({
  title,
  text,
  show,
  onHide,
}: {
  title: string;
  text: string;
  show: boolean;
  onHide: () => void;
}) {
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="not-available-title" centered>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="not-available-title">{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{text}</p>
      </Modal.Body>
    </Modal>
  );
}
