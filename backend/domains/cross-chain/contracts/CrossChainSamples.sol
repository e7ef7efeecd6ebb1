// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

interface IAppChainBridge {
    function send(string calldata appCode, string calldata targetChain, address target, bytes calldata data) external returns (uint64);
    function originChainId() external view returns (uint256);
    function originSender() external view returns (address);
}

/**
 * Protocol 2's NFT sample (docs/decisions/048): a token minted on one chain is locked in this contract and sent;
 * the same contract on the target chain mints it to the same owner. Token ids carry their home chain's id.
 */
contract CrossChainNft is ERC721 {
    IAppChainBridge public immutable bridge;
    uint64 public minted;

    event Locked(uint256 indexed tokenId, address indexed owner, string targetChain);
    event BridgedIn(uint256 indexed tokenId, address indexed owner, uint256 sourceChainId);

    constructor(address bridge_) ERC721("Cross-chain sample", "XCS") {
        bridge = IAppChainBridge(bridge_);
    }

    function mint() external returns (uint256 tokenId) {
        minted += 1;
        tokenId = (block.chainid << 64) | minted;
        _safeMint(msg.sender, tokenId);
    }

    /** Locks the caller's token here and sends its minting to `targetNft` on `targetChain`. */
    function lockAndSend(uint256 tokenId, string memory appCode, string memory targetChain, address targetNft) external returns (uint64) {
        transferFrom(msg.sender, address(this), tokenId);
        emit Locked(tokenId, msg.sender, targetChain);
        bytes memory data = abi.encodeCall(this.mintBridged, (msg.sender, tokenId));
        return bridge.send(appCode, targetChain, targetNft, data);
    }

    function mintBridged(address owner, uint256 tokenId) external {
        require(msg.sender == address(bridge), "only the bridge");
        _safeMint(owner, tokenId);
        emit BridgedIn(tokenId, owner, bridge.originChainId());
    }
}

/** Protocol 2's deposit sample: a digest deposited on one chain is recorded, with its origin, on the target chain. */
contract CrossChainDeposit {
    IAppChainBridge public immutable bridge;
    struct Record {
        bytes32 digest;
        string note;
        uint256 sourceChainId;
        address depositor;
    }
    Record[] public records;

    event Deposited(uint256 indexed index, bytes32 digest, string note, uint256 sourceChainId, address depositor);

    constructor(address bridge_) {
        bridge = IAppChainBridge(bridge_);
    }

    function depositAndSend(bytes32 digest, string memory note, string memory appCode, string memory targetChain, address targetDeposit) external returns (uint64) {
        records.push(Record(digest, note, block.chainid, msg.sender));
        emit Deposited(records.length - 1, digest, note, block.chainid, msg.sender);
        bytes memory data = abi.encodeCall(this.record, (digest, note));
        return bridge.send(appCode, targetChain, targetDeposit, data);
    }

    function record(bytes32 digest, string calldata note) external {
        require(msg.sender == address(bridge), "only the bridge");
        records.push(Record(digest, note, bridge.originChainId(), bridge.originSender()));
        emit Deposited(records.length - 1, digest, note, bridge.originChainId(), bridge.originSender());
    }

    function count() external view returns (uint256) {
        return records.length;
    }
}
